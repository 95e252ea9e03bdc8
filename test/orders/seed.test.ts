import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import demoWorkspace from '../../resources/demo-workspace.json';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/database';
import { importDemoWorkspace } from '../../src/server/seed/demo';
import { orderDetails } from '../../src/server/orders/details';
import { importSeedBundle, SeedError } from '../../src/server/seed/seed';
import type { ServiceContext } from '../../src/server/core/context';
import { ORDER_STATUSES, orderDetailsSchema } from '../../src/shared/orders';
import { id } from '../helpers/fixtures';
import { TEST_PASSWORD_COST } from '../helpers/service';
import {
  loadedOrder,
  orderId,
  ordersBundle,
  palletId,
  seedOrder,
  type SeedOrderFixture,
} from './read-fixtures';

const cheap = { passwordCost: TEST_PASSWORD_COST };
const ORDER_TABLES = ['orders', 'order_items', 'pallets', 'cartons', 'carton_skus'] as const;

let database: OpenedDatabase;
beforeEach(async () => {
  database = await openDatabase(':memory:');
});
afterEach(async () => {
  await database.close();
});

/** Every row of the order tables, in a stable order. */
function orderTables() {
  return Object.fromEntries(
    ORDER_TABLES.map((table) => [
      table,
      database.sqlite.prepare(`SELECT * FROM ${table} ORDER BY id`).all(),
    ]),
  );
}

async function seedErrorOf(bundle: unknown): Promise<string> {
  const error = await importSeedBundle(database.db, bundle, cheap).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SeedError);
  return (error as SeedError).message;
}

/** A context reading as the brand-less user who sees every facility of the bundle. */
async function readerContext(email = 'admin@a.test') {
  const user = database.sqlite.prepare('SELECT id FROM users WHERE email = ?').get(email) as {
    id: string;
  };
  const ctx = { db: database.db } as ServiceContext;
  return { ctx, user: { id: user.id, email, brandId: null } };
}

describe('seed bundle: orders', () => {
  it('imports orders with lines, pallets, cartons and SKUs; a second import changes nothing', async () => {
    const summary = await importSeedBundle(database.db, ordersBundle(), cheap);
    expect(summary.orders).toBe(4);
    const counts = Object.fromEntries(
      ORDER_TABLES.map((t) => [t, (orderTables()[t] as unknown[]).length]),
    );
    expect(counts).toEqual({
      orders: 4,
      order_items: 8,
      pallets: 2,
      cartons: 3,
      carton_skus: 3,
    });
    const before = orderTables();
    await importSeedBundle(database.db, ordersBundle(), cheap);
    expect(orderTables()).toEqual(before);
  });

  it('an order without created_at gets the import time once and keeps it on re-import', async () => {
    const bundle = ordersBundle();
    const { created_at: _omitted, ...undated } = seedOrder(9);
    bundle.orders.push(undated as SeedOrderFixture);
    await importSeedBundle(database.db, bundle, cheap);
    const first = orderTables();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await importSeedBundle(database.db, bundle, cheap);
    expect(orderTables()).toEqual(first);
  });

  it('a re-import replaces the pallets, cartons and lines with the bundle’s', async () => {
    await importSeedBundle(database.db, ordersBundle(), cheap);
    const changed = ordersBundle();
    const order = loadedOrder();
    order.items = [{ sku: 'SKU-Z', upc: '000000000099', quantity: 1 }];
    order.pallets = (order.pallets as unknown[]).slice(1);
    changed.orders[0] = order;
    await importSeedBundle(database.db, changed, cheap);
    const { ctx, user } = await readerContext();
    const details = await orderDetails(ctx, user, orderId(1));
    expect(details.items.map((i) => i.sku)).toEqual(['SKU-Z']);
    expect(details.pallets.map((p) => p.id)).toEqual([palletId(2)]);
    expect(database.sqlite.prepare('SELECT count(*) AS n FROM carton_skus').get()).toEqual({
      n: 0,
    });
  });

  describe('all or nothing, with an error naming the entry', () => {
    const cases: [string, (bundle: ReturnType<typeof ordersBundle>) => void, RegExp][] = [
      [
        'unknown brand',
        (b) => (b.orders[2]!.brand_id = '0b000000-0000-4000-8000-0000000000ff'),
        /orders\[2\]\.brand_id: brand '0b0+-0000-4000-8000-0+ff' does not exist/,
      ],
      [
        'unknown retailer',
        (b) => (b.orders[1]!.retailer_id = '0e000000-0000-4000-8000-0000000000ff'),
        /orders\[1\]\.retailer_id: retailer .* does not exist/,
      ],
      [
        'brand not working at the facility',
        (b) => (b.orders[3]!.facility_id = id('f', 2)),
        /orders\[3\]\.facility_id: brand '.*' does not work at facility '.*'/,
      ],
      [
        'picksheet code twice at a facility',
        (b) => (b.orders[1]!.picksheet_code = b.orders[0]!.picksheet_code),
        /orders\[1\]\.picksheet_code: 'PS-1001' is already order '0d0+-0000-4000-8000-0+1'/,
      ],
      [
        'the same order id twice',
        (b) => (b.orders[3]!.id = b.orders[0]!.id),
        /orders\[3\]\.id: duplicate/,
      ],
      [
        'a carton id used by two orders',
        (b) => {
          const pallets = loadedOrder().pallets as { id: string }[];
          // Pallet 2 of order 1 under a new id, with its carton (same id) inside.
          b.orders[1]!.pallets = [{ ...pallets[1]!, id: palletId(9) }];
        },
        new RegExp(`orders\\[1\\]: order '${orderId(2)}' cannot be stored`),
      ],
      ['an unknown status', (b) => (b.orders[0]!.status = 'Lost'), /orders\[0\]\.status/],
      [
        'an unknown key',
        (b) => Object.assign(b.orders[0]!, { colour: 'red' }),
        /orders\[0\]: unknown key\(s\) colour/,
      ],
      [
        'cartonQuantity that disagrees with the cartons',
        (b) => Object.assign((b.orders[0]!.pallets as object[])[0]!, { cartonQuantity: 5 }),
        /orders\[0\]\.pallets\[0\]\.cartonQuantity/,
      ],
      [
        'a create-body rule (quantity 0)',
        (b) => (b.orders[0]!.items = [{ sku: 'A', quantity: 0, upc: '1' }]),
        /orders\[0\]\.items\[0\]\.quantity/,
      ],
    ];
    it.each(cases)('%s', async (_name, spoil, message) => {
      const bundle = ordersBundle();
      spoil(bundle);
      expect(await seedErrorOf(bundle)).toMatch(message);
      // Nothing of the bundle was written, not even the sections before orders.
      expect(database.sqlite.prepare('SELECT count(*) AS n FROM facilities').get()).toEqual({
        n: 0,
      });
      expect(database.sqlite.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 0 });
    });

    it('a failing order leaves an earlier import untouched', async () => {
      await importSeedBundle(database.db, ordersBundle(), cheap);
      const before = orderTables();
      const bundle = ordersBundle();
      bundle.orders[0]!.po_number = 'CHANGED';
      bundle.orders[3]!.retailer_id = '0e000000-0000-4000-8000-0000000000ff';
      await seedErrorOf(bundle);
      expect(orderTables()).toEqual(before);
    });
  });
});

describe('demo workspace orders', () => {
  it('orders in every status, for two brands and three retailers or more, each readable', async () => {
    await importDemoWorkspace(database.db, cheap);
    const orders = demoWorkspace.orders;
    expect(new Set(orders.map((o) => o.status))).toEqual(new Set(ORDER_STATUSES));
    expect(new Set(orders.map((o) => o.brand_id)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(orders.map((o) => o.retailer_id)).size).toBeGreaterThanOrEqual(3);
    const { ctx, user } = await readerContext('demo@example.com');
    for (const order of orders) {
      const details = orderDetailsSchema.parse(await orderDetails(ctx, user, order.id));
      expect(details.items.length, order.id).toBeGreaterThan(0);
      expect(details.address_data.ship_to_contact?.address_line1, order.id).toBeTruthy();
      const packedOrLater = ['Packed', 'Staged', 'Loaded', 'Shipped'].includes(order.status);
      if (packedOrLater) {
        expect(details.pallets.length, order.id).toBeGreaterThan(0);
        for (const pallet of details.pallets) {
          expect(pallet.cartons.length, pallet.id).toBeGreaterThan(0);
          expect(pallet.cartonQuantity).toBe(pallet.cartons.length);
          for (const carton of pallet.cartons) expect(carton.skus.length).toBeGreaterThan(0);
        }
        expect(details.packed_at, order.id).not.toBeNull();
      } else {
        expect(details.pallets, order.id).toEqual([]);
      }
      if (order.status === 'Shipped') expect(details.asn_sent_at).not.toBeNull();
      if (order.status === 'Open') expect(details.started_at).toBeNull();
    }
  });

  it('SSCCs are 18 digits with a valid GS1 check digit, and unique', async () => {
    const ssccs = demoWorkspace.orders.flatMap((o) =>
      ((o as { pallets?: { sscc: string; cartons: { sscc: string }[] }[] }).pallets ?? []).flatMap(
        (p) => [p.sscc, ...p.cartons.map((c) => c.sscc)],
      ),
    );
    expect(ssccs.length).toBeGreaterThan(10);
    expect(new Set(ssccs).size).toBe(ssccs.length);
    for (const sscc of ssccs) {
      expect(sscc).toMatch(/^\d{18}$/);
      const digits = [...sscc].map(Number);
      const sum = digits
        .slice(0, 17)
        .reverse()
        .reduce((total, digit, i) => total + digit * (i % 2 === 0 ? 3 : 1), 0);
      expect(digits[17]).toBe((10 - (sum % 10)) % 10);
    }
  });

  it('importing the demo twice changes no order row', async () => {
    await importDemoWorkspace(database.db, cheap);
    const before = orderTables();
    await importDemoWorkspace(database.db, cheap);
    expect(orderTables()).toEqual(before);
    expect((before.cartons as unknown[]).length).toBeGreaterThan(0);
  });
});
