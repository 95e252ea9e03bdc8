/**
 * A Packed order takes no more units: a scan (or a carton packed or opened) after "Complete
 * packing" is refused with "Packing is complete for this order" until packing is reopened
 * explicitly (Packed → Picking). Issue 19, item 3.
 */
import { expect, it } from 'vitest';
import { describeEngines } from '../helpers/engines';
import { expectError } from '../api/envelope';
import type { FulfilmentView, StepResult } from '../../src/shared/fulfilment';
import { dataOf, fulfilmentService, ORDERS } from './support';

const order = ORDERS.freight;

describeEngines('a Packed order refuses more packing until it is reopened', (engine) => {
  const floor = fulfilmentService(['packer@a.test', 'charlie1@b.test'], engine);
  const api = floor.as('packer@a.test');
  const view = async () => dataOf<FulfilmentView>(await api.view(order));
  let cartonId: string;
  let firstPackedAt: string;

  it('completes packing short', async () => {
    const scanned = await api.scan(order, 'SKU-RED');
    cartonId = dataOf<StepResult>(scanned).carton!.id;
    expect((await api.step(order, `cartons/${cartonId}/close`)).statusCode).toBe(200);
    const done = await api.step(order, 'complete-packing', { allow_short: true });
    expect(done.statusCode, done.body).toBe(200);
    firstPackedAt = (await view()).packed_at!;
    expect(firstPackedAt).toMatch(/Z$/);
  });

  it('a scan is refused with "Packing is complete for this order"; nothing is opened', async () => {
    const refused = await api.scan(order, 'SKU-RED');
    expectError(refused, 409, 'INVALID_REQUEST', 'Packing is complete for this order');
    expect(refused.json()).toMatchObject({ error: { status: 'Packed' } });
    expectError(
      await api.pack(order, { skus: [{ sku: 'SKU-BLUE', quantity: 1 }] }),
      409,
      'INVALID_REQUEST',
      'Packing is complete for this order',
    );
    expectError(
      await api.step(order, 'cartons/open'),
      409,
      'INVALID_REQUEST',
      'Packing is complete for this order',
    );
    const state = await view();
    expect(state.status).toBe('Packed');
    expect(state.open_carton).toBeNull();
    expect(state.cartons.map((c) => c.id)).toEqual([cartonId]);
    expect(state.totals.packed_units).toBe(1);
  });

  it('reopening needs the order in the caller’s scope (same brand, other facility: 404)', async () => {
    expectError(
      await floor.as('charlie1@b.test').step(order, 'reopen-packing'),
      404,
      'NOT_FOUND',
      'Order not found',
    );
    expect((await view()).status).toBe('Packed');
  });

  it('reopening (once, under 50 parallel requests) makes it Picking again; then scans pack', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api.step(order, 'reopen-packing')),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const ok = answers.find((a) => a.statusCode === 200)!;
    expect(ok.json()).toEqual({
      message: 'Packing reopened',
      data: { order_id: order, status: 'Picking' },
    });
    expectError(
      answers.find((a) => a.statusCode === 409)!,
      409,
      'INVALID_REQUEST',
      'This order is being picked. Packing can be reopened only while it is packed.',
    );
    let state = await view();
    expect(state.status).toBe('Picking');
    // The first completion stays: the order stays on the bill of the period it was packed in.
    expect(state.packed_at).toBe(firstPackedAt);
    expect(state.next_step).toBe('complete_packing');

    const scanned = await api.scan(order, 'SKU-RED');
    expect(scanned.statusCode, scanned.body).toBe(200);
    state = await view();
    expect(state.totals.packed_units).toBe(2);
    expect(state.open_carton).not.toBeNull();
  });

  it('completing packing again keeps the first completion time (the bill counts it once)', async () => {
    const open = (await view()).open_carton!;
    expect((await api.step(order, `cartons/${open.id}/close`)).statusCode).toBe(200);
    const again = await api.step(order, 'complete-packing', { allow_short: true });
    expect(again.statusCode, again.body).toBe(200);
    const state = await view();
    expect(state.status).toBe('Packed');
    expect(state.packed_at).toBe(firstPackedAt);
  });

  it('the log has a REOPEN_PACKING row', async () => {
    const rows = await floor.svc.ctx.db
      .selectFrom('transactions')
      .select(['action_type', 'execution_status'])
      .where('order_id', '=', order)
      .where('action_type', '=', 'REOPEN_PACKING')
      .where('execution_status', '=', 'SUCCESS')
      .execute();
    expect(rows).toHaveLength(1);
  });
});
