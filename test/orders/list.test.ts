import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderListPageSchema, type OrderListPage } from '../../src/shared/orders';
import { expectError } from '../api/envelope';
import { id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { orderId, ordersBundle, seedOrder } from './read-fixtures';
import { describeEngines } from '../helpers/engines';

describeEngines('orders list', (engine) => {
  const USERS = [
    'admin@a.test',
    'brand1@a.test',
    'brand2@b.test',
    'viewer@a.test',
    'bravo@a.test',
  ] as const;
  type User = (typeof USERS)[number];

  /**
   * The four orders of ordersBundle, plus at Alpha (brand 1, retailer 1): order 5 Cancelled with a
   * PO holding `%`, order 6 Packed, order 7 Staged with many lines, and 8-70 Open, to page through.
   */
  function listBundle() {
    const bundle = ordersBundle();
    const more = [
      seedOrder(5, {
        status: 'Cancelled',
        po_number: 'Promo%50',
        external_order_id: 'WMS-Red-77',
        created_at: '2026-02-05T10:00:00.000Z',
      }),
      seedOrder(6, { status: 'Packed', created_at: '2026-02-06T10:00:00.000Z' }),
      seedOrder(7, {
        status: 'Staged',
        created_at: '2026-02-07T10:00:00.000Z',
        updated_at: '2026-04-01T00:00:00.000Z',
        items: [
          { sku: 'X1', quantity: 10 },
          { sku: 'X2', quantity: 20 },
          { sku: 'X3', quantity: 30 },
        ],
      }),
    ];
    for (let n = 8; n <= 70; n++) {
      more.push(
        seedOrder(n, {
          picksheet_code: `BULK-${String(n).padStart(3, '0')}`,
          created_at: `2026-03-01T${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:00.000Z`,
        }),
      );
    }
    return { ...bundle, orders: [...bundle.orders, ...more] };
  }

  let svc: TestService;
  const tokens = {} as Record<User, string>;

  beforeAll(async () => {
    svc = await createTestService({ engine, seed: listBundle() });
    for (const email of USERS) tokens[email] = await svc.login(email);
  });
  afterAll(async () => {
    await svc?.close();
  });

  const list = (user: User, query = '') =>
    svc.app.inject({
      method: 'GET',
      url: `/api/v1/orders${query ? `?${query}` : ''}`,
      headers: { authorization: tokens[user] },
    });

  async function page(user: User, query = ''): Promise<OrderListPage> {
    const response = await list(user, query);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'message']);
    expect(body.message).toBe('Orders retrieved successfully');
    return orderListPageSchema.parse(body.data);
  }
  const ids = (p: OrderListPage) => p.orders.map((o) => o.id);
  const all = async (user: User, query: string) => ids(await page(user, `page_size=100&${query}`));

  describe('GET /api/v1/orders', () => {
    it('defaults: page 1 of 50, newest first, with names, item count and units', async () => {
      const first = await page('admin@a.test');
      // admin sees Alpha and Bravo: orders 1, 2, 5-70 (3 and 4 are at Charlie).
      expect(first).toMatchObject({ page: 1, page_size: 50, total_count: 2 + 3 + 63 });
      expect(first.orders).toHaveLength(50);
      expect(first.orders[0]!.id).toBe(orderId(70));
      const createdAt = first.orders.map((o) => o.created_at);
      expect(createdAt).toEqual([...createdAt].sort().reverse());

      const staged = (await page('admin@a.test', 'status=Staged')).orders[0]!;
      expect(staged).toEqual({
        id: orderId(7),
        picksheet_code: 'PS-1007',
        po_number: 'PO-1007',
        external_order_id: 'EXT-1007',
        status: 'Staged',
        brand: { brand_id: id('b', 1), name: 'Brand One' },
        retailer: { retailer_id: id('r', 1), name: 'Retailer One' },
        facility: { id: id('f', 1), name: 'Alpha DC', external_facility_code: 'ALP' },
        requested_ship_date: null,
        ship_by: null,
        ship_by_status: null,
        cancel_by_date: null,
        item_count: 3,
        total_units: 60,
        created_at: '2026-02-07T10:00:00.000Z',
        updated_at: '2026-04-01T00:00:00.000Z',
      });
    });

    it('pages: page 2 holds the rest, a page past the end is empty, the total stays', async () => {
      const second = await page('admin@a.test', 'page=2');
      expect(second.orders).toHaveLength(68 - 50);
      expect(second.total_count).toBe(68);
      const firstIds = ids(await page('admin@a.test'));
      expect(ids(second).filter((x) => firstIds.includes(x))).toEqual([]);
      const beyond = await page('admin@a.test', 'page=9');
      expect(beyond).toMatchObject({ page: 9, total_count: 68, orders: [] });
      expect((await page('admin@a.test', 'page_size=100')).orders).toHaveLength(68);
    });

    it('search is case-insensitive and partial over PO, picksheet code and external id', async () => {
      expect(await all('admin@a.test', 'search=po-1006')).toEqual([orderId(6)]);
      expect(await all('admin@a.test', 'search=ps-100')).toEqual(
        [7, 6, 5, 1, 2].map(orderId), // PS-1001 … PS-1007 at Alpha/Bravo, newest first
      );
      expect(await all('admin@a.test', 'search=red-7')).toEqual([orderId(5)]);
      expect(await all('admin@a.test', 'search=bulk-07')).toEqual([orderId(70)]);
      // `%` and `_` are plain characters, not patterns.
      expect(await all('admin@a.test', `search=${encodeURIComponent('o%5')}`)).toEqual([
        orderId(5),
      ]);
      expect(await all('admin@a.test', 'search=P_-1')).toEqual([]);
      expect(await all('admin@a.test', 'search=nothing-like-this')).toEqual([]);
    });

    it('status takes a comma-separated list; facility, retailer and brand narrow', async () => {
      expect(await all('admin@a.test', 'status=Cancelled,Packed')).toEqual([
        orderId(6),
        orderId(5),
      ]);
      expect(await all('admin@a.test', `brand_id=${id('b', 2)}`)).toEqual([orderId(2)]);
      expect(await all('admin@a.test', `retailer_id=${id('r', 2)}`)).toEqual([orderId(2)]);
      expect(await all('brand1@a.test', `facility_id=${id('f', 3)}`)).toEqual([orderId(3)]);
      expect(
        await all('admin@a.test', `facility_id=${id('f', 1)}&status=Loaded&search=PS-1001`),
      ).toEqual([orderId(1)]);
    });

    it('sorts by each field, either direction, with status along the flow', async () => {
      const statusAsc = (
        await page('admin@a.test', 'order_by=status&order_direction=asc&page_size=100')
      ).orders.map((o) => o.status);
      const flow = ['Open', 'Picking', 'Packed', 'Staged', 'Loaded', 'Shipped', 'Cancelled'];
      expect(statusAsc).toEqual([...statusAsc].sort((a, b) => flow.indexOf(a) - flow.indexOf(b)));
      expect(statusAsc.at(-1)).toBe('Cancelled');
      expect(statusAsc.at(-2)).toBe('Loaded');

      const byCode = (
        await page('admin@a.test', 'order_by=picksheet_code&order_direction=asc&page_size=3')
      ).orders.map((o) => o.picksheet_code);
      expect(byCode).toEqual(['BULK-008', 'BULK-009', 'BULK-010']);
      const byPoDesc = (await page('admin@a.test', 'order_by=po_number&page_size=1')).orders[0]!;
      expect(byPoDesc.po_number).toBe('Promo%50');
      const byUpdated = (await page('admin@a.test', 'order_by=updated_at&page_size=1')).orders[0]!;
      expect(byUpdated.id).toBe(orderId(7));
      const oldest = (await page('admin@a.test', 'order_direction=asc&page_size=1')).orders[0]!;
      expect(oldest.id).toBe(orderId(2)); // created 2026-01-02; order 1 on 2026-01-05
    });

    describe('scope', () => {
      it("brand credentials see only their brand's orders, at every facility they see", async () => {
        const seen = await all('brand1@a.test', '');
        expect(seen).toContain(orderId(1));
        expect(seen).toContain(orderId(3)); // Charlie, another organisation, same brand
        expect(seen).not.toContain(orderId(2)); // brand 2 at Alpha
        expect(seen).not.toContain(orderId(4)); // brand 2 at Charlie
        expect(await all('brand2@b.test', '')).toEqual([orderId(4)]);
      });

      it('a facility, brand or retailer outside the scope matches nothing (no error)', async () => {
        expect(await all('viewer@a.test', `facility_id=${id('f', 3)}`)).toEqual([]);
        expect(await all('brand1@a.test', `brand_id=${id('b', 2)}`)).toEqual([]);
        expect(await all('bravo@a.test', '')).toEqual([]); // Bravo has no orders; Alpha is not theirs
        expect((await page('bravo@a.test')).total_count).toBe(0);
        expect(await all('admin@a.test', `facility_id=${id('f', 3)}`)).toEqual([]);
      });
    });

    it('rejects bad parameters with 400 Invalid query parameters', async () => {
      for (const query of [
        'status=Lost',
        'status=Open,Nope',
        'facility_id=nope',
        'retailer_id=1',
        'brand_id=x',
        'order_by=password',
        'order_direction=sideways',
        'page=0',
        'page=abc',
        'page_size=101',
        'page_size=0',
        `search=${'x'.repeat(101)}`,
      ]) {
        const body = expectError(
          await list('admin@a.test', query),
          400,
          'INVALID_REQUEST',
          'Invalid query parameters',
        );
        expect(typeof (body.error as { details?: unknown }).details, query).toBe('string');
      }
    });

    it('needs a token', async () => {
      expectError(
        await svc.app.inject({ method: 'GET', url: '/api/v1/orders' }),
        401,
        'UNAUTHORIZED',
        'Authentication failed',
      );
    });

    it('is in the OpenAPI document with its query parameters', async () => {
      const doc = (await svc.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
      const get = doc.paths['/api/v1/orders'].get;
      const names = (get.parameters as { name: string }[]).map((p) => p.name).sort();
      expect(names).toEqual(
        [
          'brand_id',
          'facility_id',
          'order_by',
          'order_direction',
          'page',
          'page_size',
          'retailer_id',
          'search',
          'status',
          'ship_by_from',
          'ship_by_to',
          'due',
        ].sort(),
      );
      expect(doc.paths['/api/v1/orders/{order_id}'].get).toBeDefined();
    });
  });
});
