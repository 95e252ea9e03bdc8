import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HEALTH_CHECK_TTL_MS } from '../../src/server/http/health-routes';
import { createTestService, type TestService } from '../helpers/service';

/** Stands still between calls (a busy machine must not move it past the cache's second). */
const clock = {
  startMs: Date.now(),
  offsetMs: 0,
  now(): Date {
    return new Date(this.startMs + this.offsetMs);
  },
};

let svc: TestService;
beforeEach(async () => {
  clock.startMs = Date.now();
  clock.offsetMs = 0;
  svc = await createTestService({ clock });
});
afterEach(async () => {
  await svc?.app.close();
  if (svc?.database.sqlite.open) await svc.database.close();
});

const health = () => svc.app.inject({ method: 'GET', url: '/api/health' });

describe('GET /api/health checks the database at most once a second', () => {
  it('the first call checks the database: a closed database answers 500 in the envelope', async () => {
    svc.database.sqlite.close();
    const response = await health();
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      message: 'Internal server error',
      error: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });

  it('within a second of a good check it answers without a query; after it, it checks again', async () => {
    expect((await health()).statusCode).toBe(200);
    svc.database.sqlite.close(); // any query would now fail
    clock.offsetMs = HEALTH_CHECK_TTL_MS - 10;
    const cached = await health();
    expect(cached.statusCode).toBe(200);
    expect(cached.json()).toMatchObject({ status: 'ok' });
    clock.offsetMs = HEALTH_CHECK_TTL_MS;
    expect((await health()).statusCode).toBe(500);
  });

  it('a clock set back does not stretch the cached answer', async () => {
    expect((await health()).statusCode).toBe(200);
    svc.database.sqlite.close();
    clock.offsetMs = -60_000;
    expect((await health()).statusCode).toBe(500);
  });
});
