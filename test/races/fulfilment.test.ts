/**
 * SSCC serials and the carton and pallet totals under 60 parallel requests on both engines
 * (test/fulfilment/sscc-serials runs one order on SQLite): packs of two orders of one brand share
 * the prefix's counter, which the order row locks do not serialise on PostgreSQL's pool.
 */
import { expect, it } from 'vitest';
import { isValidSscc } from '../../src/server/fulfilment/sscc';
import type { StepResult } from '../../src/shared/fulfilment';
import { describeEngines } from '../helpers/engines';
import { dataOf, fulfilmentService, ORDERS, PREFIX_B1 } from '../fulfilment/support';

const N = 60;

describeEngines('SSCC serials under parallel packs', (engine) => {
  const floor = fulfilmentService(['packer@a.test'], engine);

  it('60 parallel packs over two orders, then 30 parallel pallets: every SSCC once, totals exact', async () => {
    const api = floor.as('packer@a.test');
    for (const order of [ORDERS.freight, ORDERS.parcel]) {
      expect((await api.step(order, 'start-picking')).statusCode).toBe(200);
    }
    const packs = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        api.pack(i % 2 ? ORDERS.parcel : ORDERS.freight, {
          skus: [{ sku: 'SKU-RED', quantity: 1 }],
          allow_over_ship: true,
        }),
      ),
    );
    for (const pack of packs) expect(pack.statusCode, pack.body).toBe(201);
    const cartons = packs.map((p) => dataOf<StepResult>(p).carton!);
    const cartonSsccs = cartons.map((c) => c.sscc!);
    expect(new Set(cartonSsccs).size).toBe(N);
    expect(cartonSsccs.every(isValidSscc)).toBe(true);

    const freightCartons = cartons.filter((_, i) => i % 2 === 0);
    const pallets = await Promise.all(
      freightCartons.map((carton) => api.pallet(ORDERS.freight, { carton_ids: [carton.id] })),
    );
    for (const pallet of pallets) expect(pallet.statusCode, pallet.body).toBe(201);
    const palletSsccs = pallets.map((p) => dataOf<StepResult>(p).pallet!.sscc!);
    expect(new Set([...cartonSsccs, ...palletSsccs]).size).toBe(N + N / 2);
    expect(palletSsccs.every(isValidSscc)).toBe(true);

    const counter = await floor.svc.ctx.db
      .selectFrom('sscc_counters')
      .selectAll()
      .where('company_prefix', '=', PREFIX_B1)
      .executeTakeFirstOrThrow();
    expect(Number(counter.last_serial)).toBe(N + N / 2);
    const totals = await floor.svc.ctx.db
      .selectFrom('order_billing_totals')
      .select(['order_id', 'cartons', 'pallets', 'units'])
      .where('order_id', 'in', [ORDERS.freight, ORDERS.parcel])
      .orderBy('order_id')
      .execute();
    expect(totals.map((t) => [t.order_id, t.cartons, t.pallets, t.units])).toEqual(
      [
        [ORDERS.freight, N / 2, N / 2, N / 2],
        [ORDERS.parcel, N / 2, 0, N / 2],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );

    // The transaction log's counts (kept by triggers) match its rows, action by action.
    const db = floor.svc.ctx.db;
    const counted = await db
      .selectFrom('transaction_counts')
      .select(['action_type', db.fn.sum<number>('n').as('n')])
      .where('day', '=', '')
      .groupBy('action_type')
      .execute();
    const rows = await db
      .selectFrom('transactions')
      .select(['action_type', db.fn.countAll<number>().as('n')])
      .groupBy('action_type')
      .execute();
    const byAction = (list: { action_type: string; n: number | string }[]) =>
      Object.fromEntries(list.map((r) => [r.action_type, Number(r.n)]));
    expect(byAction(counted)).toEqual(byAction(rows));
    expect(byAction(rows)).toMatchObject({ PACK_CARTON: N });
  });
});
