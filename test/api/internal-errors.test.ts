import { afterEach, describe, expect, it } from 'vitest';
import { baseBundle } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';

/** Unhandled failures answer the endpoint's own message in the envelope: no stack, no bare 500. */
describe('unhandled failures', () => {
  let svc: TestService | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  it('token endpoint: 500 Internal server error when the users table is gone', async () => {
    svc = await createTestService({ seed: baseBundle() });
    svc.database.sqlite.exec('ALTER TABLE users RENAME TO users_gone');
    const response = await svc.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: { email: 'admin@a.test', password: 'whatever-password' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      message: 'Internal server error',
      error: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(response.body).not.toMatch(/users_gone|SqliteError|at /);
  });

  it('facilities: 500 Error fetching facilities when the query fails', async () => {
    svc = await createTestService({ seed: baseBundle() });
    const bearer = await svc.login('admin@a.test');
    svc.database.sqlite.exec('ALTER TABLE user_facilities RENAME TO user_facilities_gone');
    const response = await svc.app.inject({
      method: 'GET',
      url: '/api/user-facilities/v1/facilities',
      headers: { authorization: bearer },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      message: 'Error fetching facilities',
      error: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });

  it('inventory advice: 500 Internal server error, and nothing half-written', async () => {
    svc = await createTestService({ seed: baseBundle() });
    const bearer = await svc.login('admin@a.test');
    // The snapshot insert succeeds, the outbox insert fails: the transaction must roll back.
    svc.database.sqlite.exec('ALTER TABLE advice_deliveries RENAME TO advice_deliveries_gone');
    const response = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/inventory/brand/0b000000-0000-4000-8000-000000000001/facility/0f000000-0000-4000-8000-000000000001',
      headers: { authorization: bearer },
      payload: { items: [{ sku: 'A', available_quantity: 1 }] },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      message: 'Internal server error',
      error: { code: 'INTERNAL_SERVER_ERROR' },
    });
    const snapshots = svc.database.sqlite
      .prepare('SELECT count(*) AS n FROM advice_snapshots')
      .get();
    expect(snapshots).toEqual({ n: 0 });
    const counters = svc.database.sqlite
      .prepare('SELECT max(interchange_counter) AS n FROM connections')
      .get();
    expect(counters).toEqual({ n: 0 });
  });
});
