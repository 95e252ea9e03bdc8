import { describe, expect, it } from 'vitest';
import { BRAND_WIDE_ON_WORKSTATION } from '../../src/server/inventory/advise';
import {
  api,
  closedAfterEach,
  COLUMBUS,
  DEMO_PASSWORD,
  orderByCode,
  OTHER_DEVICES,
  pendingMutations,
  seedInto,
  signIn,
  starters,
  syncUntilQuiet,
} from './helpers/cluster';

/** What a real workstation writes still passes the central's push guards (issue 18). */
const running = closedAfterEach();
const start = starters(running);
const RENO_AND_COLUMBUS = OTHER_DEVICES.renoColumbus;

async function cluster() {
  const central = await start.central();
  await seedInto(central, { devices: [RENO_AND_COLUMBUS] });
  const workstation = await start.workstation(central.url, RENO_AND_COLUMBUS);
  return { central, workstation };
}

describe('a workstation’s own writes under the push guards', () => {
  it('a move between two facilities the workstation serves reaches the central, with no conflict', async () => {
    const { central, workstation } = await cluster();
    const auth = await signIn(workstation);
    const moved = await api(workstation, auth, 'PUT', '/api/v1/orders/change-facility', {
      picksheet_code: 'PS-SUM-2611001',
      facility_id: COLUMBUS,
    });
    expect(moved.status).toBe(200);
    await syncUntilQuiet(workstation);
    const order = await orderByCode(central, 'PS-SUM-2611001');
    expect(order.facility_id).toBe(COLUMBUS);
    const conflicts = await central.context.db
      .selectFrom('sync_conflicts')
      .select('reason')
      .where('client_id', '=', RENO_AND_COLUMBUS.id)
      .execute();
    expect(conflicts).toEqual([]);
  }, 60_000);

  it('a refused order write that names no facility stays in the local log: nothing to push, no conflict', async () => {
    const { central, workstation } = await cluster();
    const auth = await signIn(workstation);
    const facilityless = () =>
      workstation.context.db
        .selectFrom('transactions')
        .select('transaction_id')
        .where('execution_status', '=', 'FAILURE')
        .where('facility_id', 'is', null)
        .execute();
    const before = new Set((await facilityless()).map((r) => r.transaction_id));
    const refused = await api(workstation, auth, 'POST', '/api/v1/orders/create', { items: [] });
    expect(refused.status).toBe(400);
    const local = (await facilityless()).filter((r) => !before.has(r.transaction_id));
    expect(local).toHaveLength(1);
    expect(await pendingMutations(workstation)).toBe(0);
    await syncUntilQuiet(workstation);
    const onCentral = await central.context.db
      .selectFrom('transactions')
      .select('transaction_id')
      .where('transaction_id', '=', local[0]!.transaction_id)
      .execute();
    expect(onCentral).toEqual([]);
    const conflicts = await central.context.db
      .selectFrom('sync_conflicts')
      .select('reason')
      .where('client_id', '=', RENO_AND_COLUMBUS.id)
      .execute();
    expect(conflicts).toEqual([]);
  }, 60_000);

  it('a brand-wide advice is refused on a workstation at once (the central would refuse its rows)', async () => {
    const { workstation } = await cluster();
    const auth = await signIn(workstation, 'summit@example.com', DEMO_PASSWORD);
    const answer = await api(workstation, auth, 'POST', '/api/v1/inventory/brand', {
      items: [{ sku: 'SUM-TENT-2P', available_quantity: 5 }],
    });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe(BRAND_WIDE_ON_WORKSTATION);
    const snapshots = await workstation.context.db
      .selectFrom('advice_snapshots')
      .select('id')
      .execute();
    expect(snapshots).toEqual([]);
    expect(await pendingMutations(workstation)).toBe(0);
  }, 60_000);
});
