import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Engine } from '../../src/server/db/engine';
import { orderId as reportOrderId, reportOrders } from '../billing/report-fixtures';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { orderId } from '../orders/read-fixtures';
import { bulkAtDelta, transactionsBundle } from '../transactions/fixtures';

/*
 * The features whose SQL has a PostgreSQL twin (the transaction log, orders analytics) answer
 * exactly as on SQLite: the same bodies, byte for byte, from the same seed. The suites of each
 * feature check the values on both engines; this catches what they do not name (a field's type,
 * a key order, a row's place in a tie).
 */
type Services = Record<Engine, TestService>;
type Tokens = Record<Engine, string>;

function bothEngines(user: string, seed: () => unknown) {
  const services = {} as Services;
  const tokens = {} as Tokens;
  beforeAll(async () => {
    for (const engine of ['sqlite', 'postgres'] as const) {
      services[engine] = await createTestService({ seed: seed(), engine });
      tokens[engine] = await services[engine].login(user);
    }
  });
  afterAll(async () => {
    await Promise.all(Object.values(services).map((svc) => svc.close()));
  });
  return async (url: string) => {
    const [sqlite, postgres] = await Promise.all(
      (['sqlite', 'postgres'] as const).map((engine) =>
        services[engine].app.inject({
          method: 'GET',
          url,
          headers: { authorization: tokens[engine] },
        }),
      ),
    );
    expect(sqlite!.statusCode, sqlite!.body).toBe(200);
    expect(postgres!.statusCode, url).toBe(200);
    expect(postgres!.body, url).toBe(sqlite!.body);
  };
}

describe.skipIf(!inject('postgres'))('the same answers on both engines', () => {
  describe('the transaction log', () => {
    const same = bothEngines('ops@a.test', () => transactionsBundle(bulkAtDelta(30)));
    it.each([
      '',
      'page_size=7&page=2',
      'page_size=10&page=4',
      'order_by=action_type&order_direction=asc',
      'order_by=execution_status',
      `order_id=${orderId(1)}`,
      'po_number=PO-1001',
      'has_error=true',
      `brand_ids=${id('b', 1)}&created_from=2026-01-10&created_to=2026-03-01`,
      'search=example',
      'search=ps-100&has_error=false',
      'search=0000-4000&page_size=5&page=3&order_by=updated_at&order_direction=asc',
      'search=EXAMPLE&order_by=action_type&order_direction=asc&page_size=4&page=2',
      'search=example&order_by=execution_status&page_size=3&page=3',
      // Searched pages (one pass: the count rides along the page's sort), each sort order and
      // direction, the first page and a later one, with and without other filters, and a page
      // past the end (no row carries the total).
      'search=orders',
      'search=orders&page_size=6&page=3',
      'search=orders&order_direction=asc&page_size=6&page=2',
      'search=orders&order_by=updated_at&page_size=6',
      'search=orders&order_by=updated_at&order_direction=asc&page_size=6&page=4',
      'search=orders&order_by=execution_status&order_direction=asc&page_size=6',
      'search=orders&order_by=execution_status&page_size=6&page=5',
      'search=orders&order_by=action_type&page_size=6&page=2',
      'search=orders&order_by=action_type&order_direction=asc&page_size=6&page=6',
      'search=orders&execution_status=SUCCESS&page_size=5&page=2',
      `search=orders&facility_ids=${id('f', 4)}&created_from=2026-01-10&created_to=2026-01-10&order_by=action_type&page_size=4&page=3`,
      'search=api&action_type=SEND_ASN&order_by=updated_at&order_direction=asc&page_size=5&page=3',
      'search=example&has_error=true&order_by=execution_status&order_direction=asc&page_size=2&page=2',
      'search=orders&page_size=50&page=9',
      'search=nothing-matches-this',
    ])('GET /api/transactions?%s', async (query) => {
      await same(`/api/transactions?${query}`);
    });
  });

  describe('orders analytics', () => {
    const same = bothEngines('admin@a.test', () => ({ ...baseBundle(), orders: reportOrders() }));
    it.each([
      `/api/v2/orders/analytics/table/${id('f', 1)}`,
      `/api/v2/orders/analytics/table/${id('f', 1)}?order_id=${reportOrderId(1)}`,
      `/api/v2/orders/analytics/table/${id('f', 1)}?page_size=2&page=2`,
      '/api/v1/orders/analytics/table',
      '/api/v1/orders/analytics/table?page_size=3&page=2',
    ])('GET %s', async (url) => {
      await same(url);
    });
  });
});
