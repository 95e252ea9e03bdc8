/**
 * The billing totals the triggers keep (`order_billing_totals`, `order_action_totals`) when 60
 * writers add activity to one order at once: recorded label downloads, recorded packing slips
 * and VAS actions. Each trigger recomputes its order's totals from the rows; on PostgreSQL's
 * pool (READ COMMITTED) two such recomputes must not each miss the other's row.
 */
import { expect, it } from 'vitest';
import { packingSlipRow } from '../../src/server/documents/print-records';
import { insertActivity } from '../../src/server/orders';
import { describeEngines } from '../helpers/engines';
import { signedInService } from '../helpers/signed-in';
import { documentsBundle, orderId, palletId } from '../documents/fixtures';

const EACH = 20;
/** Rounds of 60 writers: before the fix, five rounds lost a count on PostgreSQL in 3 runs of 6. */
const ROUNDS = 5;

describeEngines('billing totals under 60 parallel writers to one order', (engine) => {
  const api = signedInService(['admin@a.test'] as const, () => ({
    engine,
    seed: documentsBundle(),
  }));
  const order = orderId(1);
  const label = () =>
    api.get(
      'admin@a.test',
      `/api/v1/orders/${order}/labels/pallets/${palletId(1)}?kind=placard&record=true`,
    );
  const slip = () => api.get('admin@a.test', `/api/v1/orders/${order}/packing-slip?record=true`);
  const vas = (count: number) =>
    api.svc.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${order}/actions`,
      headers: api.headers('admin@a.test'),
      payload: { action_type: 'VAS', metric: 'Kitting', count },
    });

  it('every label, slip and action is counted once, and no writer fails', async () => {
    // An action total already there: each recompute replaces the order's action totals.
    expect((await vas(5)).statusCode).toBe(201);
    for (let round = 0; round < ROUNDS; round++) {
      const responses = await Promise.all(
        Array.from({ length: EACH * 3 }, (_, i) => [label, slip, () => vas(2)][i % 3]!()),
      );
      expect(responses.map((r) => r.statusCode).sort()).toEqual(
        [...Array<number>(EACH * 2).fill(200), ...Array<number>(EACH).fill(201)].sort(),
      );
    }
    const totals = await api.svc.ctx.db
      .selectFrom('order_billing_totals')
      .select(['labels_generated', 'pallet_label_placard', 'packing_slips', 'vas_actions'])
      .where('order_id', '=', order)
      .executeTakeFirstOrThrow();
    expect(totals).toEqual({
      labels_generated: ROUNDS * EACH,
      pallet_label_placard: ROUNDS * EACH,
      packing_slips: ROUNDS * EACH,
      vas_actions: 5 + ROUNDS * 2 * EACH,
    });
    const actions = await api.svc.ctx.db
      .selectFrom('order_action_totals')
      .select(['action_type', 'metric', 'count'])
      .where('order_id', '=', order)
      .execute();
    expect(actions).toEqual([
      { action_type: 'VAS', metric: 'Kitting', count: 5 + ROUNDS * 2 * EACH },
    ]);
  });

  it('60 parallel one-row writers, ten times over, count every row', async () => {
    // The insert alone (no PDF, no order lock): the triggers' recounts meet as often as can be.
    const db = api.svc.ctx.db;
    const slips = async () =>
      (
        await db
          .selectFrom('order_billing_totals')
          .select('packing_slips')
          .where('order_id', '=', order)
          .executeTakeFirstOrThrow()
      ).packing_slips;
    const row = () => packingSlipRow(order, null, new Date().toISOString());
    const before = await slips();
    for (let round = 0; round < 10; round++) {
      await Promise.all(
        Array.from({ length: 60 }, () =>
          db.transaction().execute((trx) => insertActivity(trx, [row()])),
        ),
      );
    }
    expect(await slips()).toBe(before + 600);
  });
});
