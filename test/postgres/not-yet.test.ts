import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';

/*
 * What has no PostgreSQL twin yet answers in the envelope, saying so, never with the driver's
 * syntax error (docs/operations.md, "Not on PostgreSQL yet").
 */
describe.skipIf(!inject('postgres'))('features not on PostgreSQL yet', () => {
  let svc: TestService;
  let token: string;
  beforeAll(async () => {
    svc = await createTestService({ seed: baseBundle(), engine: 'postgres' });
    token = await svc.login('admin@a.test');
  });
  afterAll(async () => {
    await svc?.close();
  });

  it.each([[`/api/v2/orders/analytics/table/${id('f', 1)}`, 'Orders analytics']])(
    'GET %s: 500 naming what is missing',
    async (url, what) => {
      const response = await svc.app.inject({
        method: 'GET',
        url,
        headers: { authorization: token },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        message: `${what} is not available on PostgreSQL yet`,
        error: { code: 'INTERNAL_SERVER_ERROR' },
      });
    },
  );

  it('an unknown facility is still a 404 before that', async () => {
    const response = await svc.app.inject({
      method: 'GET',
      url: `/api/v2/orders/analytics/table/${id('f', 99)}`,
      headers: { authorization: token },
    });
    expect(response.statusCode).toBe(404);
  });
});
