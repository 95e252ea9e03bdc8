/**
 * 860s and 850 cancellations through POST /api/v1/edi/inbound: an Open order takes the change
 * (lines added, deleted, quantities and prices changed) or the cancellation; past Picking the set
 * is refused in clerk words and logged as a FAILURE, the order untouched.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { InterchangeSummaryView } from '../../src/shared/edi-inbound';
import { manualClock } from '../helpers/clock';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { describeEngines } from '../helpers/engines';
import { createTestService, type TestService } from '../helpers/service';
import { dataOf } from '../fulfilment/support';
import { goldenFor, inboundBundle, postInterchange } from './inbound-support';
import { until } from './support';

describeEngines('inbound changes and cancellations', (engine) => {
  let partner: Receiver;
  let svc: TestService;
  let admin: string;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 997 sends');
    await svc?.close();
  });

  async function withOrders() {
    partner.clear();
    svc = await createTestService({
      engine,
      seed: inboundBundle(partner.url),
      clock: manualClock('2030-07-01T09:00:00Z').clock,
    });
    admin = await svc.login('admin@a.test');
    const created = await postInterchange(svc, admin, goldenFor('850-two-orders.edi', 417));
    expect(created.statusCode, created.body).toBe(200);
    const [first, second] = dataOf<InterchangeSummaryView>(created).transaction_sets;
    return { first: first!.order_id!, second: second!.order_id! };
  }
  const order = (id: string) =>
    svc.ctx.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const poLines = (id: string) =>
    svc.ctx.db
      .selectFrom('order_po_lines')
      .select(['line_id', 'sku', 'quantity', 'unit_price'])
      .where('order_id', '=', id)
      .orderBy('line_id')
      .execute();
  const items = (id: string) =>
    svc.ctx.db
      .selectFrom('order_items')
      .select(['sku', 'quantity'])
      .where('order_id', '=', id)
      .orderBy('line_number')
      .execute();
  const changeLog = () =>
    svc.ctx.db
      .selectFrom('transactions')
      .select(['order_id', 'execution_status', 'error_message'])
      .where('action_type', '=', 'INGEST_PURCHASE_ORDER_CHANGE')
      .execute();

  it('an 860 changes an Open order’s lines and cancels another', async () => {
    const { first, second } = await withOrders();
    const response = await postInterchange(svc, admin, goldenFor('860-changes.edi', 418));
    expect(response.statusCode, response.body).toBe(200);
    const sets = dataOf<InterchangeSummaryView>(response).transaction_sets;
    expect(sets.map((s) => [s.status, s.order_id])).toEqual([
      ['accepted', first],
      ['accepted', second],
    ]);
    expect(await poLines(first)).toEqual([
      { line_id: '1', sku: 'ACME-TEE-BLK-M', quantity: 18, unit_price: 12.5 },
      { line_id: '2', sku: '012345678912', quantity: 16, unit_price: 8.25 },
      { line_id: '4', sku: 'ACME-HOOD-GRY-S', quantity: 10, unit_price: 15 },
    ]);
    expect(await items(first)).toEqual([
      { sku: 'ACME-TEE-BLK-M', quantity: 18 },
      { sku: '012345678912', quantity: 16 },
      { sku: 'ACME-HOOD-GRY-S', quantity: 10 },
    ]);
    expect((await order(second)).status).toBe('Cancelled');
    expect((await changeLog()).map((row) => row.execution_status)).toEqual(['SUCCESS', 'SUCCESS']);
  });

  it('past Picking an 860 is refused in clerk words, and the order stays as it was', async () => {
    const { first } = await withOrders();
    await svc.ctx.db
      .updateTable('orders')
      .set({ status: 'Packed' })
      .where('id', '=', first)
      .execute();
    const before = await items(first);
    const response = await postInterchange(svc, admin, goldenFor('860-changes.edi', 418));
    const [change] = dataOf<InterchangeSummaryView>(response).transaction_sets;
    expect(change).toMatchObject({ status: 'rejected', order_id: first });
    expect(change!.errors.join(' ')).toContain('was changed after its order was packed');
    expect(await items(first)).toEqual(before);
    expect(await changeLog()).toContainEqual(
      expect.objectContaining({
        order_id: first,
        execution_status: 'FAILURE',
        error_message: expect.stringContaining('packed'),
      }),
    );
  });

  it('an 860 for an order not made from an 850 is refused, its items kept', async () => {
    const { first } = await withOrders();
    await svc.ctx.db.deleteFrom('order_po_lines').where('order_id', '=', first).execute();
    const before = await items(first);
    const response = await postInterchange(svc, admin, goldenFor('860-changes.edi', 418));
    const [change, cancel] = dataOf<InterchangeSummaryView>(response).transaction_sets;
    expect(change).toMatchObject({ status: 'rejected', order_id: first });
    expect(change!.errors.join(' ')).toContain('was not made from an 850 here');
    expect(cancel!.status).toBe('accepted');
    expect(await items(first)).toEqual(before);
  });

  it('an 850 with BEG01 01 cancels an Open order, not a packed one', async () => {
    const { first, second } = await withOrders();
    await svc.ctx.db
      .updateTable('orders')
      .set({ status: 'Packed' })
      .where('id', '=', second)
      .execute();
    const cancel = goldenFor('850-two-orders.edi', 419)
      .replace('BEG*00*SA*4500012345', 'BEG*01*SA*4500012345')
      .replace('BEG*00*DS*4500012346', 'BEG*01*DS*4500012346');
    const response = await postInterchange(svc, admin, cancel);
    expect(response.statusCode, response.body).toBe(200);
    const sets = dataOf<InterchangeSummaryView>(response).transaction_sets;
    expect(sets.map((s) => s.status)).toEqual(['accepted', 'rejected']);
    expect(sets[1]!.errors.join(' ')).toContain('its order is packed');
    expect((await order(first)).status).toBe('Cancelled');
    expect((await order(second)).status).toBe('Packed');
  });
});
