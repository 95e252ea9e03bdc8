import { afterAll, beforeAll, expect, it } from 'vitest';
import { refillBillingRollup } from '../../src/server/billing/rollup';
import { executeRaw } from '../../src/server/db/raw-query';
import { describeEngines } from '../helpers/engines';
import { id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { cartonId, orderId, palletId, reportsBundle } from './report-fixtures';

/*
 * Invoices read per-order totals that triggers keep; invoice order details count the rows
 * themselves. After any write to the rows, both must agree.
 */
describeEngines('per-order totals', (engine) => {
  let svc: TestService;
  let token: string;

  beforeAll(async () => {
    svc = await createTestService({ engine, seed: reportsBundle() });
    token = await svc.login('admin@a.test');
  });
  afterAll(async () => {
    await svc?.close();
  });

  const get = async (url: string) => {
    const response = await svc.app.inject({
      method: 'GET',
      url,
      headers: { authorization: token },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  /** Brand 1's invoice counts, and the same summed from its order details. */
  async function bothWays() {
    const invoice = (await get(`/api/v1/fintech/invoices?brand_id=${id('b', 1)}`)) as {
      brands: {
        line_items: { metric: string; count: number }[];
        action_items: { metric: string; count: number }[];
      }[];
    };
    const details = (await get(
      `/api/v1/fintech/invoice-order-details?brand_id=${id('b', 1)}&page_size=100`,
    )) as {
      items: {
        core: Record<string, number>;
        carton_actions: Record<string, number>;
        pallet_actions: Record<string, number>;
        vas_actions: Record<string, number>;
      }[];
    };
    const [brand] = invoice.brands;
    const counts = Object.fromEntries(
      [...brand!.line_items, ...brand!.action_items].map((l) => [l.metric, l.count]),
    );
    const sum = (pick: (item: (typeof details.items)[number]) => number | undefined) =>
      details.items.reduce((total, item) => total + (pick(item) ?? 0), 0);
    const fromDetails = {
      Orders: details.items.length,
      Cartons: sum((i) => i.core.cartons),
      'Labels Generated': sum((i) => i.core.labels_generated),
      'Carton Label Printed - GS1 Label': sum((i) => i.core.carton_label_gs1_printed),
      Pack: sum((i) => i.carton_actions.Pack),
      'Stretch Wrap': sum((i) => i.pallet_actions['Stretch Wrap']),
      Ticketing: sum((i) => i.vas_actions.Ticketing),
    };
    return { counts, fromDetails };
  }

  /** A write with `?` parameters, on either engine (the rows are changed under the service). */
  const run = async (text: string, ...parameters: unknown[]) => {
    await executeRaw(svc.ctx.db, text, parameters);
  };
  const all = async (text: string, ...parameters: unknown[]) =>
    ((await executeRaw(svc.ctx.db, text, parameters)) as { rows: unknown[] }).rows;

  it('follow every kind of write to the rows', async () => {
    const first = await bothWays();
    expect(first.counts).toEqual(first.fromDetails);
    expect(first.counts).toMatchObject({ Orders: 2, Cartons: 3, Pack: 3, Ticketing: 3 });

    // A carton removed (its SKU lines go with it), a label reprinted, an action added and one
    // removed, a carton moved to another order, a quantity changed.
    await run('DELETE FROM cartons WHERE id = ?', cartonId(2));
    await run(
      `INSERT INTO order_activity (id, order_id, kind, action_type, metric, count, created_at)
         VALUES ('x1', ?, 'LABEL_PRINT', NULL, 'Carton Label Printed - GS1 Label', 2, '2026-03-01'),
                ('x2', ?, 'ACTION', 'VAS', 'Ticketing', 4, '2026-03-05')`,
      orderId(1),
      orderId(2),
    );
    await run(
      `DELETE FROM order_activity WHERE order_id = ? AND metric = 'Stretch Wrap'`,
      orderId(1),
    );
    await run('UPDATE cartons SET order_id = ? WHERE id = ?', orderId(2), cartonId(1));
    await run(
      `UPDATE order_activity SET count = 5 WHERE order_id = ? AND metric = 'Pack'`,
      orderId(2),
    );
    const after = await bothWays();
    expect(after.counts).toEqual(after.fromDetails);
    expect(after.counts).toMatchObject({
      Cartons: 2,
      'Carton Label Printed - GS1 Label': 5,
      Pack: 7,
      'Stretch Wrap': 0,
      Ticketing: 7,
    });

    // A pallet moves order; a new order arrives with nothing on it.
    await run('UPDATE pallets SET order_id = ? WHERE id = ?', orderId(2), palletId(1));
    const rollup = async () =>
      (await all('SELECT order_id, pallets FROM order_billing_totals ORDER BY order_id')) as {
        order_id: string;
        pallets: number;
      }[];
    expect((await rollup()).find((r) => r.order_id === orderId(2))?.pallets).toBe(2);
    expect((await rollup()).find((r) => r.order_id === orderId(1))?.pallets).toBe(0);
    // Every order has its row; a deleted order takes its row along.
    expect(await rollup()).toHaveLength(6);
    await run('DELETE FROM orders WHERE id = ?', orderId(5));
    expect(await rollup()).toHaveLength(5);
  });

  it("carry the order's invoice columns, following every change to the order", async () => {
    const columns = `facility_id, brand_id, status, retailer_id, transportation_method,
      asn_sent_at, packed_at`;
    const agree = async () => {
      const orders = await all(`SELECT id AS order_id, ${columns} FROM orders`);
      expect(await all(`SELECT order_id, ${columns} FROM order_billing_totals`)).toEqual(
        expect.arrayContaining(orders),
      );
      expect(await all(`SELECT count(*) AS n FROM order_billing_totals`)).toEqual([
        { n: orders.length },
      ]);
      const stale = await all(
        `SELECT count(*) AS n FROM order_action_totals a JOIN orders o ON o.id = a.order_id
           WHERE ${columns
             .split(',')
             .map((c) => `a.${c.trim()} IS DISTINCT FROM o.${c.trim()}`)
             .join(' OR ')}`,
      );
      expect(stale).toEqual([{ n: 0 }]);
    };
    await agree();
    const before = await bothWays();
    // Cancelled: out of the invoice; packed later, another method, ASN sent: the filters follow.
    await run(`UPDATE orders SET status = 'Cancelled' WHERE id = ?`, orderId(2));
    await run(
      `UPDATE orders SET packed_at = '2026-04-02T00:00:00.000Z', transportation_method = 'parcel',
         asn_sent_at = '2026-04-03T00:00:00.000Z' WHERE id = ?`,
      orderId(1),
    );
    await agree();
    const after = await bothWays();
    expect(after.counts).toEqual(after.fromDetails);
    expect(after.counts.Orders).toBe(before.counts.Orders! - 1);
    const april = await get(
      `/api/v1/fintech/invoices?brand_id=${id('b', 1)}&packed_from=2026-04-01&transportation_method=PARCEL`,
    );
    expect(april.brands[0].line_items).toContainEqual(
      expect.objectContaining({ metric: 'Orders', count: 1 }),
    );
    // Another brand: the order's totals move with it (brand is the first column of their key).
    await run(`UPDATE orders SET brand_id = ? WHERE id = ?`, id('b', 2), orderId(1));
    await agree();
    const moved = await bothWays();
    expect(moved.counts).toEqual(moved.fromDetails);
    expect(moved.counts.Orders).toBe(after.counts.Orders! - 1);
    await run(`UPDATE orders SET brand_id = ? WHERE id = ?`, id('b', 1), orderId(1));
    await run(`UPDATE orders SET status = 'Shipped' WHERE id = ?`, orderId(2));
    await agree();
  });

  it('are recomputed from the rows in one pass (migration of existing data, bulk loads)', async () => {
    const before = await bothWays();
    await run('UPDATE order_billing_totals SET cartons = 99');
    await run('DELETE FROM order_action_totals');
    await refillBillingRollup(svc.ctx.db as never);
    const after = await bothWays();
    expect(after).toEqual(before);
    expect(after.counts).toEqual(after.fromDetails);
  });
});
