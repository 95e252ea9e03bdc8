import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/schema';
import { orderDetails } from '../../src/server/orders/details';
import {
  ORDER_TIMESTAMP_FIELDS,
  orderDetailsSchema,
  type OrderDetails,
} from '../../src/shared/orders';
import { expectError } from '../api/envelope';
import { id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { cartonId, orderId, ordersBundle, palletId, seedOrder } from './read-fixtures';
import { describeEngines } from '../helpers/engines';

describeEngines('orders details', (engine) => {
  const USERS = [
    'admin@a.test',
    'brand1@a.test',
    'brand2@b.test',
    'viewer@a.test',
    'bravo@a.test',
  ] as const;
  type User = (typeof USERS)[number];

  let svc: TestService;
  const tokens = {} as Record<User, string>;

  beforeAll(async () => {
    svc = await createTestService({ engine, seed: ordersBundle() });
    for (const email of USERS) tokens[email] = await svc.login(email);
  });
  afterAll(async () => {
    await svc?.close();
  });

  const details = (user: User, orderIdText: string) =>
    svc.app.inject({
      method: 'GET',
      url: `/api/v1/orders/${orderIdText}`,
      headers: { authorization: tokens[user] },
    });

  describe('8. GET /api/v1/orders/{order_id}', () => {
    it('answers the full shape: identifiers with codes, status, every timestamp, pallets → cartons → SKUs', async () => {
      const response = await details('admin@a.test', orderId(1));
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'message']);
      expect(body.message).toBe('Order details retrieved successfully');
      const data = orderDetailsSchema.parse(body.data);
      for (const field of ORDER_TIMESTAMP_FIELDS) expect(body.data).toHaveProperty(field);

      expect(data.identifiers).toEqual({
        id: orderId(1),
        picksheet_code: 'PS-1001',
        external_order_id: 'EXT-1001',
        po_number: 'PO-1001',
        retailer_id: id('r', 1),
        brand: { external_brand_code: 'B1', brand_id: id('b', 1), name: 'Brand One' },
        facility: { external_facility_code: 'ALP', id: id('f', 1), name: 'Alpha DC' },
        retailer: { retailer_id: id('r', 1), name: 'Retailer One' },
        transportation_method: 'FREIGHT',
        bill_of_lading_number: 'BOL-1',
        pro_number: 'PRO-1',
        carrier: 'XPO Logistics',
        service_method: null,
        parcel_account_number: null,
        parcel_billing_type: null,
        carrier_alpha_code: 'XPOL',
        external_load_number: 'LD-1',
        dept_number: '42',
        purchase_order_type: 'SA',
      });
      expect(data.status).toBe('Loaded');

      // Times are ISO 8601 UTC; an offset given on import is converted.
      expect(data.created_at).toBe('2026-01-05T10:00:00.000Z');
      expect(data.updated_at).toBe('2026-01-07T16:30:00.000Z');
      expect(data.started_at).toBe('2026-01-06T06:00:00.000Z');
      expect(data.packed_at).toBe('2026-01-06T12:00:00.000Z');
      expect(data.staged_at).toBe('2026-01-07T09:00:00.000Z');
      expect(data.loaded_at).toBe('2026-01-07T16:30:00.000Z');
      // Body dates are midnight UTC of that day here, and as written under `dates`.
      expect(data.requested_delivery_date).toBe('2026-02-10T00:00:00.000Z');
      expect(data.stage_by).toBe('2026-02-01T00:00:00.000Z');
      expect(data.dates.requested_delivery_date).toBe('2026-02-10');
      expect(data.dates.latest_ship_date).toBeNull();
      // Steps that have not happened are null.
      for (const field of [
        'asn_sent_at',
        'invoice_sent_at',
        'po_acknowledgment_sent_at',
        'pickup_date',
        'parcel_print_start_time',
        'scheduled_delivery_date',
      ] as const) {
        expect(data[field], field).toBeNull();
      }
      expect(data.shipped_at).toBeNull();
      for (const field of ORDER_TIMESTAMP_FIELDS) {
        const value = body.data[field] as string | null;
        if (value !== null)
          expect(value, field).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }

      expect(data.pallets).toEqual([
        {
          id: palletId(1),
          created_at: '2026-01-06T11:00:00.000Z',
          staged_by: 'sam',
          staged_at: '2026-01-07T09:00:00.000Z',
          sscc: '006141410000000018',
          status: 'Loaded',
          cartonQuantity: 2,
          dim_unit: 'in',
          height: 48,
          width: 40,
          length: 48,
          weight_unit: 'lb',
          weight: 210.5,
          cartons: [
            {
              id: cartonId(1),
              sscc: '006141410000000025',
              created_at: '2026-01-06T10:00:00.000Z',
              packed_by: 'dev',
              packing_complete_at: '2026-01-06T10:05:00.000Z',
              parcel_tracking_number: null,
              dim_unit: 'in',
              height: 12,
              width: 16,
              length: 20,
              weight_unit: 'lb',
              weight: 14.2,
              skus: [
                { sku: 'SKU-A', upc: '000000000011', serial_numbers: ['S1', 'S2'], quantity: 4 },
                { sku: 'SKU-B', upc: null, serial_numbers: [], quantity: 2 },
              ],
            },
            expect.objectContaining({
              id: cartonId(2),
              skus: [{ sku: 'SKU-B', upc: null, serial_numbers: [], quantity: 4 }],
            }),
          ],
        },
        expect.objectContaining({
          id: palletId(2),
          cartonQuantity: 1,
          staged_at: null,
          weight: null,
          cartons: [expect.objectContaining({ id: cartonId(3), skus: [] })],
        }),
      ]);

      expect(data.items.map((i) => [i.sku, i.quantity])).toEqual([
        ['SKU-A', 4],
        ['SKU-B', 6],
      ]);
      expect(data.address_data.bill_to_contact).toMatchObject({ email: 'ap@retailer.example' });
      expect(data.address_data.mark_for_contact).toMatchObject({ state: 'NV' });
    });

    it('an order without pallets has an empty pallet list; a brand without a code answers null', async () => {
      const data = orderDetailsSchema.parse(
        (await details('admin@a.test', orderId(2))).json().data,
      );
      expect(data.pallets).toEqual([]);
      expect(data.identifiers.brand.external_brand_code).toBeNull();
      expect(data.started_at).toBeNull();
      expect(data.address_data).toEqual({
        ship_to_contact: null,
        bill_to_contact: null,
        mark_for_contact: null,
      });
    });

    it('a malformed id is 400 Invalid order ID format; no token is 401', async () => {
      expectError(
        await details('admin@a.test', 'not-a-uuid'),
        400,
        'INVALID_REQUEST',
        'Invalid order ID format',
      );
      const anonymous = await svc.app.inject({
        method: 'GET',
        url: `/api/v1/orders/${orderId(1)}`,
      });
      expectError(anonymous, 401, 'UNAUTHORIZED', 'Authentication failed');
    });

    it('an upper-case id finds the order (ids compare in lower case)', async () => {
      expect((await details('admin@a.test', orderId(1).toUpperCase())).statusCode).toBe(200);
    });

    describe("another tenant's order answers exactly like an unknown one", () => {
      const unknown = '0d000000-0000-4000-8000-0000000000ff';
      const cases: [User, number, string][] = [
        ['brand1@a.test', 2, "brand 1's credentials, brand 2's order at a facility they share"],
        ['brand2@b.test', 3, "brand 2's credentials, brand 1's order at Charlie, where both work"],
        ['viewer@a.test', 3, 'a user of Alpha, an order at Charlie (another organisation)'],
        ['admin@a.test', 4, 'a user of Alpha and Bravo, an order at Charlie'],
        ['bravo@a.test', 1, 'a user of Bravo, an order at Alpha (same organisation)'],
      ];
      it.each(cases)('%s, order %i: %s', async (user, n) => {
        const hidden = await details(user, orderId(n));
        const missing = await details(user, unknown);
        expectError(hidden, 404, 'NOT_FOUND', 'Order not found');
        expect(hidden.body).toBe(missing.body);
        expect(hidden.statusCode).toBe(missing.statusCode);
      });

      it('each of those orders is visible to a user in scope', async () => {
        expect((await details('brand1@a.test', orderId(1))).statusCode).toBe(200);
        expect((await details('brand1@a.test', orderId(3))).statusCode).toBe(200);
        expect((await details('brand2@b.test', orderId(4))).statusCode).toBe(200);
        expect((await details('viewer@a.test', orderId(2))).statusCode).toBe(200);
      });
    });

    it('60 parallel requests of different users each get their own answer', async () => {
      const cases: [User, number, number][] = [
        ['admin@a.test', 1, 200],
        ['brand1@a.test', 2, 404],
        ['brand1@a.test', 3, 200],
        ['brand2@b.test', 4, 200],
        ['viewer@a.test', 3, 404],
        ['bravo@a.test', 1, 404],
      ];
      const runs = Array.from({ length: 60 }, (_, i) => cases[i % cases.length]!);
      const answers = await Promise.all(runs.map(([user, n]) => details(user, orderId(n))));
      answers.forEach((response, i) => {
        const [user, n, status] = runs[i]!;
        expect(response.statusCode, `${user} order ${n}`).toBe(status);
        if (status === 200) expect(response.json().data.identifiers.id).toBe(orderId(n));
      });
    });

    it('a removed facility grant hides the order at the next request', async () => {
      const userId = (
        await svc.ctx.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'viewer@a.test')
          .executeTakeFirstOrThrow()
      ).id;
      expect((await details('viewer@a.test', orderId(1))).statusCode).toBe(200);
      await svc.ctx.db.deleteFrom('user_facilities').where('user_id', '=', userId).execute();
      try {
        expectError(
          await details('viewer@a.test', orderId(1)),
          404,
          'NOT_FOUND',
          'Order not found',
        );
      } finally {
        await svc.ctx.db
          .insertInto('user_facilities')
          .values({ user_id: userId, facility_id: id('f', 1) })
          .execute();
      }
    });

    // Counts the SQLite driver's statements; on PostgreSQL the same document is one query too
    // (./order-document-sql.postgres.ts), but there is no second handle on the pool to count with.
    if (engine === 'sqlite') {
      it('runs the same few queries for one pallet or many (not one per pallet or carton)', async () => {
        const queries: string[] = [];
        // Not destroyed afterwards: that would close the service's own SQLite handle.
        const counting = new Kysely<Database>({
          dialect: new SqliteDialect({ database: svc.database.sqlite }),
          log: (event) => {
            if (event.level === 'query') queries.push(event.query.sql);
          },
        });
        const ctx = { ...svc.ctx, db: counting };
        const user = { id: 'no-such-user', email: 'x@a.test', brandId: null };
        // A user with no facilities still pays for the order and its facility check only.
        await expect(orderDetails(ctx, user, orderId(1))).rejects.toThrow('Order not found');
        const admin = await svc.ctx.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'admin@a.test')
          .executeTakeFirstOrThrow();
        const adminUser = { id: admin.id, email: 'admin@a.test', brandId: null };
        queries.length = 0;
        const many = await orderDetails(ctx, adminUser, orderId(1));
        const forMany = queries.length;
        queries.length = 0;
        const none = await orderDetails(ctx, adminUser, orderId(2));
        expect(many.pallets.flatMap((p) => p.cartons)).toHaveLength(3);
        expect(none.pallets).toHaveLength(0);
        expect(queries.length).toBe(forMany);
        expect(forMany).toBeLessThanOrEqual(4);
      });
    }
  });

  describe('8. served from cache only while nothing changed', () => {
    const read = async (n = 1) => {
      const response = await details('admin@a.test', orderId(n));
      expect(response.statusCode, response.body).toBe(200);
      return orderDetailsSchema.parse(response.json().data);
    };

    it('an update through the API is seen by the next request', async () => {
      expect((await read()).identifiers.po_number).toBe('PO-1001');
      const update = await svc.app.inject({
        method: 'PUT',
        url: '/api/v1/orders',
        headers: { authorization: tokens['admin@a.test'] },
        payload: { picksheet_code: 'PS-1001', facility_id: id('f', 1), po_number: 'PO-CHANGED' },
      });
      expect(update.statusCode, update.body).toBe(200);
      expect((await read()).identifiers.po_number).toBe('PO-CHANGED');
    });

    const writes: [string, string, (d: OrderDetails) => unknown, unknown][] = [
      [
        'a pallet',
        `UPDATE pallets SET status = 'Shipped' WHERE id = '${palletId(1)}'`,
        (d) => d.pallets[0]!.status,
        'Shipped',
      ],
      [
        'a carton',
        `DELETE FROM cartons WHERE id = '${cartonId(2)}'`,
        (d) => d.pallets[0]!.cartonQuantity,
        1,
      ],
      [
        'a carton SKU line',
        `UPDATE carton_skus SET quantity = 99 WHERE sku = 'SKU-B'`,
        (d) => d.pallets[0]!.cartons[0]!.skus[1]!.quantity,
        99,
      ],
      [
        'an order line',
        `UPDATE order_items SET quantity = 77 WHERE order_id = '${orderId(1)}' AND sku = 'SKU-A'`,
        (d) => d.items[0]!.quantity,
        77,
      ],
      [
        'the order row',
        `UPDATE orders SET status = 'Shipped' WHERE id = '${orderId(1)}'`,
        (d) => d.status,
        'Shipped',
      ],
      [
        'a brand code',
        `UPDATE brands SET external_brand_code = 'B1X' WHERE id = '${id('b', 1)}'`,
        (d) => d.identifiers.brand.external_brand_code,
        'B1X',
      ],
      [
        'a facility name',
        `UPDATE facilities SET name = 'Alpha Two' WHERE id = '${id('f', 1)}'`,
        (d) => d.identifiers.facility.name,
        'Alpha Two',
      ],
      [
        'a retailer name',
        `UPDATE retailers SET name = 'Retailer Uno' WHERE id = '${id('r', 1)}'`,
        (d) => d.identifiers.retailer.name,
        'Retailer Uno',
      ],
    ];
    it.each(writes)(
      'a write to %s, even by hand, is seen by the next request',
      async (_what, statement, pick, expected) => {
        await read(); // cached now
        await execRaw(svc, statement);
        expect(pick(await read())).toEqual(expected);
      },
    );

    it('visibility is checked on every request, also for a cached answer', async () => {
      expect((await details('brand1@a.test', orderId(3))).statusCode).toBe(200); // cached now
      expectError(await details('viewer@a.test', orderId(3)), 404, 'NOT_FOUND', 'Order not found');
      expectError(await details('brand2@b.test', orderId(3)), 404, 'NOT_FOUND', 'Order not found');
    });
  });

  describe('8. unhandled failure', () => {
    it('answers 500 Order details retrieval failed in the envelope', async () => {
      const broken = await createTestService({
        engine,
        seed: { ...ordersBundle(), orders: [seedOrder(5)] },
      });
      try {
        const token = await broken.login('admin@a.test');
        await execRaw(broken, 'DROP TABLE carton_skus');
        const response = await broken.app.inject({
          method: 'GET',
          url: `/api/v1/orders/${orderId(5)}`,
          headers: { authorization: token },
        });
        expectError(response, 500, 'INTERNAL_SERVER_ERROR', 'Order details retrieval failed');
      } finally {
        await broken.close();
      }
    });
  });

  /** A statement written by hand, on either engine. */
  async function execRaw(service: TestService, statement: string): Promise<void> {
    await sql.raw(statement).execute(service.ctx.db);
  }
});
