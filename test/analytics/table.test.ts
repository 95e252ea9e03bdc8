import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService } from '../helpers/service';
import { signedInService } from '../helpers/signed-in';
import { describeEngines } from '../helpers/engines';
import { orderId, reportOrders } from '../billing/report-fixtures';

const USERS = ['admin@a.test', 'brand1@a.test', 'brand2@b.test', 'viewer@a.test'] as const;
type User = (typeof USERS)[number];

/** Orders 1-6 of the report fixtures, plus 12 open orders 11-22 of brand 1 at Alpha (older). */
function analyticsBundle() {
  const extra = Array.from({ length: 12 }, (_, i) => ({
    id: orderId(11 + i),
    status: 'Open',
    po_number: `PO-X${i}`,
    picksheet_code: `PS-X${String(i).padStart(2, '0')}`,
    brand_id: id('b', 1),
    retailer_id: id('r', 1),
    facility_id: id('f', 1),
    items: [{ sku: 'SKU-Z', quantity: 1 }],
    created_at: `2026-02-${String(10 + i).padStart(2, '0')}T00:00:00.000Z`,
  }));
  return { ...baseBundle(), orders: [...reportOrders(), ...extra] };
}

describeEngines('orders analytics', (engine) => {
  const api = signedInService(USERS, () => ({ seed: analyticsBundle(), engine }));

  const { get } = api;
  const v2 = (user: User, facility: string, query = '') =>
    get(user, `/api/v2/orders/analytics/table/${facility}${query}`);
  type Row = Record<string, unknown> & { order_id: string; order_number: string };

  describe('orders analytics v2', () => {
    it('computes a row from the pallets, cartons, SKU lines and activity', async () => {
      const response = await v2('admin@a.test', id('f', 1), `?order_id=${orderId(1)}`);
      expect(response.statusCode).toBe(200);
      const body = response.json() as { message: string; data: Row[] };
      expect(body.message).toBe('Orders analytics table retrieved successfully');
      expect(body.data).toHaveLength(1);
      const row = body.data[0]!;
      expect(row).toMatchObject({
        order_id: orderId(1),
        order_number: 'PS-1',
        order_status: 'Shipped',
        brand: 'Brand One',
        retailer: 'Retailer One',
        created_at: 'Sun, 01 Mar 2026 00:00:00 GMT',
        packed_at: 'Sun, 01 Mar 2026 00:00:00 GMT',
        asn_sent_at: 'Mon, 02 Mar 2026 23:59:59 GMT',
        stage_by: 'Wed, 04 Mar 2026 00:00:00 GMT',
        loaded_at: null,
        invoice_sent_at: null,
        total_pallets: 1,
        total_cartons: 2,
        total_units: 10,
        unique_sku_count: 2,
        // 3 carton prints (one a reprint) + 1 pallet print; unique: carton 1, carton 2, pallet 1.
        total_labels: 4,
        unique_labels: 3,
        total_vas_actions: 3,
      });
      expect(row.line_items).toEqual([
        { ordered_quantity: 4, shipped_quantity: 4, sku: 'SKU-A', upc: '000000000011' },
        { ordered_quantity: 6, shipped_quantity: 6, sku: 'SKU-B', upc: null },
      ]);
      expect(Object.keys(row)).toHaveLength(23 + 6 + 7);
    });

    it('reports shipped quantity 0 before the order ships', async () => {
      const response = await v2('admin@a.test', id('f', 1), `?order_id=${orderId(2)}`);
      const [row] = (response.json() as { data: Row[] }).data;
      expect(row).toMatchObject({ total_cartons: 1, total_units: 1, total_labels: 1 });
      expect(row!.line_items).toEqual([
        { ordered_quantity: 4, shipped_quantity: 0, sku: 'SKU-A', upc: '000000000011' },
      ]);
    });

    it('lists newest first, 10 a page by default, capped at 10', async () => {
      const first = (await v2('admin@a.test', id('f', 1))).json() as { data: Row[] };
      // Alpha: orders 5, 2, 3, 1 (March), then the 12 February ones, newest first.
      expect(first.data.map((r) => r.order_number)).toEqual([
        'PS-5',
        'PS-2',
        'PS-3',
        'PS-1',
        'PS-X11',
        'PS-X10',
        'PS-X09',
        'PS-X08',
        'PS-X07',
        'PS-X06',
      ]);
      const capped = (await v2('admin@a.test', id('f', 1), '?page_size=50')).json() as {
        data: Row[];
      };
      expect(capped.data).toHaveLength(10);
      const second = (await v2('admin@a.test', id('f', 1), '?page=2')).json() as { data: Row[] };
      expect(second.data.map((r) => r.order_number)).toEqual([
        'PS-X05',
        'PS-X04',
        'PS-X03',
        'PS-X02',
        'PS-X01',
        'PS-X00',
      ]);
      const small = (await v2('admin@a.test', id('f', 1), '?page=3&page_size=3')).json() as {
        data: Row[];
      };
      expect(small.data.map((r) => r.order_number)).toEqual(['PS-X09', 'PS-X08', 'PS-X07']);
      const past = (await v2('admin@a.test', id('f', 1), '?page=9')).json() as { data: Row[] };
      expect(past.data).toEqual([]);
    });

    it('keeps the cap under 50 parallel requests', async () => {
      const first = (await v2('admin@a.test', id('f', 1))).json() as { data: Row[] };
      expect(first.data).toHaveLength(10);
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          v2('admin@a.test', id('f', 1), `?page_size=${[11, 100, 1000][i % 3]}`),
        ),
      );
      for (const response of responses) {
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual(first);
      }
    });

    it('filters to one order; an order of another facility or tenant is not there', async () => {
      const other = await v2('admin@a.test', id('f', 1), `?order_id=${orderId(4)}`);
      expect(other.json()).toEqual({
        data: [],
        message: 'Orders analytics table retrieved successfully',
      });
      const upper = await v2('admin@a.test', id('f', 1), `?order_id=${orderId(3).toUpperCase()}`);
      expect((upper.json() as { data: Row[] }).data.map((r) => r.order_id)).toEqual([orderId(3)]);
    });

    it("narrows to the credentials' brand", async () => {
      const brand2 = (await v2('brand2@b.test', id('f', 3))).json() as { data: Row[] };
      expect(brand2.data.map((r) => r.order_id)).toEqual([orderId(6)]);
      const brand1 = (await v2('brand1@a.test', id('f', 1))).json() as { data: Row[] };
      expect(brand1.data.every((r) => r.brand === 'Brand One')).toBe(true);
      expect(brand1.data.map((r) => r.order_id)).not.toContain(orderId(3));
    });

    it('answers the interface errors', async () => {
      expectError(
        await v2('admin@a.test', 'not-a-uuid'),
        400,
        'INVALID_REQUEST',
        'Invalid facility ID format',
      );
      // Charlie exists but admin@a.test does not see it; brand2@b.test sees Charlie only.
      expectError(await v2('admin@a.test', id('f', 3)), 404, 'NOT_FOUND', 'Facility not found');
      expectError(await v2('brand2@b.test', id('f', 1)), 404, 'NOT_FOUND', 'Facility not found');
      expectError(await v2('admin@a.test', id('f', 99)), 404, 'NOT_FOUND', 'Facility not found');
      expectError(
        await get(null, `/api/v2/orders/analytics/table/${id('f', 1)}`),
        401,
        'UNAUTHORIZED',
        'Authentication failed',
      );
      for (const query of ['?page=0', '?page_size=0', '?page=x', '?order_id=42']) {
        expectError(await v2('admin@a.test', id('f', 1), query), 400, 'INVALID_REQUEST');
      }
    });
  });

  describe('orders analytics v1', () => {
    const v1 = (user: User | null, query = '') =>
      get(user, `/api/v1/orders/analytics/table${query}`);

    it('lists the orders of every facility the user sees, with the v1 fields', async () => {
      const response = await v1('brand1@a.test', '?page_size=3');
      expect(response.statusCode).toBe(200);
      const body = response.json() as { message: string; data: Row[] };
      expect(body.message).toBe('Orders analytics table retrieved successfully');
      // Brand 1 at Alpha and Charlie: 5 (Alpha), 2 (Alpha), 4 (Charlie), ...
      expect(body.data.map((r) => r.order_number)).toEqual(['PS-5', 'PS-2', 'PS-4']);
      expect(Object.keys(body.data[2]!).sort()).toEqual(
        [
          'asn_sent_at',
          'brand',
          'retailer',
          'order_number',
          'order_status',
          'total_cartons',
          'total_labels',
          'unique_labels',
          'total_pallets',
          'unique_sku_count',
          'total_units',
          'total_vas_actions',
        ].sort(),
      );
      expect(body.data[2]).toMatchObject({
        asn_sent_at: 'Tue, 03 Mar 2026 10:00:00 GMT',
        retailer: 'Retailer Three',
        total_pallets: 1,
        total_units: 2,
      });
    });

    it("never shows another tenant's orders, and caps the page at 10", async () => {
      const admin = (await v1('admin@a.test', '?page_size=11&page=1')).json() as { data: Row[] };
      expect(admin.data).toHaveLength(10);
      const all = [
        ...admin.data,
        ...((await v1('admin@a.test', '?page=2')).json() as { data: Row[] }).data,
      ];
      expect(all.map((r) => r.order_number)).not.toContain('PS-4');
      expect(all.map((r) => r.order_number)).not.toContain('PS-6');
      expect(all).toHaveLength(16);
      const brand2 = (await v1('brand2@b.test')).json() as { data: Row[] };
      expect(brand2.data.map((r) => r.order_number)).toEqual(['PS-6']);
    });

    it('needs a token', async () => {
      expectError(await v1(null), 401, 'UNAUTHORIZED', 'Authentication failed');
    });
  });

  describe('a failure', () => {
    it("answers the interface's 500 message", async () => {
      const local = await createTestService({ seed: analyticsBundle(), engine });
      try {
        const token = await local.login('admin@a.test');
        await sql`ALTER TABLE order_activity RENAME TO order_activity_gone`.execute(local.ctx.db);
        const response = await local.app.inject({
          method: 'GET',
          url: `/api/v2/orders/analytics/table/${id('f', 1)}`,
          headers: { authorization: token },
        });
        expectError(response, 500, 'INTERNAL_SERVER_ERROR', 'Failed to retrieve orders analytics');
      } finally {
        await local.close();
      }
    });
  });
});
