import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEngines } from '../helpers/engines';
import { openEngineCentral, type EngineCentral } from './helpers/pull-central-engines';
import { pulledRows } from './helpers/pull-fixture';

/**
 * Stamps a pull relies on, on both engines (stamps.ts TEMP triggers; 0017_sync_stamps on
 * PostgreSQL): an order moving to another facility is evicted from the old facility's devices and
 * comes whole to the new one's; a deleted row comes as a tombstone; a changed key as a tombstone
 * of the old key and the row under the new one.
 */
const ORG = 'a0000000-0000-4000-8000-00000000000a';
const RENO = 'f0000000-0000-4000-8000-000000000001';
const SAVANNAH = 'f0000000-0000-4000-8000-000000000003';
const BRAND = 'b0000000-0000-4000-8000-000000000001';
const RETAILER = 'e0000000-0000-4000-8000-000000000001';
const RENO_DEVICE = { id: 'd0000000-0000-4000-8000-000000000001', facilityIds: [RENO] };
const SAVANNAH_DEVICE = { id: 'd0000000-0000-4000-8000-000000000003', facilityIds: [SAVANNAH] };

describeEngines('pull: evictions and tombstones', (engine) => {
  let central: EngineCentral;
  beforeEach(async () => {
    central = await openEngineCentral(engine);
    await central.insert('organizations', { id: ORG });
    for (const id of [RENO, SAVANNAH])
      await central.insert('facilities', { id, organization_id: ORG });
    await central.insert('brands', { id: BRAND });
    await central.insert('retailers', { id: RETAILER });
    for (const facility_id of [RENO, SAVANNAH])
      await central.insert('brand_facilities', { brand_id: BRAND, facility_id });
  });
  afterEach(() => central.close());

  const order = () =>
    central.insert('orders', {
      brand_id: BRAND,
      retailer_id: RETAILER,
      facility_id: RENO,
      picksheet_code: `PS-${Math.random().toString(36).slice(2, 8)}`,
    });

  it('an order moved to another facility leaves the old one and comes whole to the new one', async () => {
    const moved = await order();
    const item = await central.insert('order_items', { order_id: moved.id });
    const reno = await central.pullAll(RENO_DEVICE);
    const savannah = await central.pullAll(SAVANNAH_DEVICE);
    expect(pulledRows(reno, 'orders').map((r) => r.id)).toEqual([moved.id]);
    expect(pulledRows(savannah, 'orders')).toEqual([]);

    await central.run(`UPDATE orders SET facility_id = ? WHERE id = ?`, SAVANNAH, moved.id);
    const renoNext = await central.pullAll(RENO_DEVICE, reno.cursor);
    expect(renoNext.evictions.map((e) => e.order_id)).toEqual([moved.id]);
    expect(renoNext.changes).toEqual([]);
    const savannahNext = await central.pullAll(SAVANNAH_DEVICE, savannah.cursor);
    expect(pulledRows(savannahNext, 'orders').map((r) => r.facility_id)).toEqual([SAVANNAH]);
    expect(pulledRows(savannahNext, 'order_items').map((r) => r.id)).toEqual([item.id]);
    expect(savannahNext.evictions).toEqual([]);
  });

  it('a deleted row comes as a tombstone, a changed key as the old key deleted', async () => {
    const kept = await order();
    const item = await central.insert('order_items', { order_id: kept.id });
    const first = await central.pullAll(RENO_DEVICE);
    await central.run(`DELETE FROM order_items WHERE id = ?`, item.id);
    const next = await central.pullAll(RENO_DEVICE, first.cursor);
    expect(next.changes).toEqual([
      expect.objectContaining({ t: 'order_items', k: [item.id], deleted: true }),
    ]);
    await central.insert('retailers', { id: 'old-key' });
    const before = await central.pullAll(RENO_DEVICE, next.cursor);
    await central.run(`UPDATE retailers SET id = ? WHERE id = ?`, 'new-key', 'old-key');
    const renamed = await central.pullAll(RENO_DEVICE, before.cursor);
    expect(renamed.changes.map((c) => [c.k[0], c.deleted ?? false])).toEqual([
      ['old-key', true],
      ['new-key', false],
    ]);
  });
});
