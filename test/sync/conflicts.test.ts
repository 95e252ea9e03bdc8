import { beforeAll, expect, it } from 'vitest';
import { describeEngines } from '../helpers/engines';
import type { RunningService } from '../../src/server/http/server';
import {
  api,
  closedAfterEach,
  COLUMBUS,
  DEVICES,
  orderByCode,
  RENO,
  SAVANNAH,
  seedInto,
  signIn,
  starters,
  syncUntilQuiet,
} from './helpers/cluster';
import type { TcpProxy } from './helpers/tcp-proxy';

const BRAND_1 = '0b000000-0000-4000-8000-000000000001';
const BRAND_2 = '0b000000-0000-4000-8000-000000000002';

const running = closedAfterEach();
let start = starters(running);

interface Cluster {
  central: RunningService;
  w1: RunningService;
  w2: RunningService;
  proxy1: TcpProxy;
  auth: { central: string; w1: string; w2: string };
}

async function cluster(): Promise<Cluster> {
  const central = await start.central();
  const proxy1 = await start.proxyTo(central);
  const w1 = await start.workstation(proxy1.url, DEVICES.w1);
  const w2 = await start.workstation(central.url, DEVICES.w2);
  return {
    central,
    w1,
    w2,
    proxy1,
    auth: { central: await signIn(central), w1: await signIn(w1), w2: await signIn(w2) },
  };
}

describeEngines('sync conflicts', (engine) => {
  beforeAll(() => {
    start = starters(running, engine);
  });
  it('an edit made offline to an order cancelled centrally is refused, reverted on pull, listed and resolved', async () => {
    const { central, w1, proxy1, auth } = await cluster();
    const order = await orderByCode(central, 'PS-SUM-2611001');
    proxy1.setMode('drop');
    const edit = await api(w1, auth.w1, 'PUT', '/api/v1/orders', {
      picksheet_code: order.picksheet_code,
      po_number: 'OFFLINE-EDIT',
    });
    expect(edit.status).toBe(200);
    const cancel = await api(
      central,
      auth.central,
      'POST',
      `/api/v1/orders/${order.id}/cancel`,
      {},
    );
    expect(cancel.status).toBe(200);
    await w1.context.sync!.client!.syncNow();
    const offline = await api(w1, auth.w1, 'GET', '/api/sync/v1/status');
    expect(offline.body).toMatchObject({ online: false, pending_mutations: 1 });

    proxy1.setMode('pass');
    await syncUntilQuiet(w1);
    const local = await orderByCode(w1, order.picksheet_code);
    expect(local.status).toBe('Cancelled');
    expect(local.po_number).toBe(order.po_number);
    expect((await orderByCode(central, order.picksheet_code)).po_number).toBe(order.po_number);

    const status = await api(w1, auth.w1, 'GET', '/api/sync/v1/status');
    expect(status.body).toMatchObject({ online: true, pending_mutations: 0, conflicts: 1 });
    const list = await api(w1, auth.w1, 'GET', '/api/sync/v1/conflicts');
    expect(list.status).toBe(200);
    expect(list.body.message).toBe('Conflicts retrieved successfully');
    const [item] = list.body.data.items;
    expect(item).toMatchObject({
      device_id: DEVICES.w1.id,
      order_id: order.id,
      picksheet_code: order.picksheet_code,
      reason: `Order ${order.picksheet_code} was already Cancelled on the central service`,
      status: 'open',
      fields: [{ table: 'orders', field: 'status', central: 'Cancelled' }],
    });
    const resolved = await api(w1, auth.w1, 'POST', `/api/sync/v1/conflicts/${item!.id}/resolve`, {
      action: 'keep_central',
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ status: 'resolved', resolution: 'keep_central' });
    const twice = await api(w1, auth.w1, 'POST', `/api/sync/v1/conflicts/${item!.id}/resolve`, {
      action: 'keep_central',
    });
    expect(twice).toMatchObject({ status: 409, body: { message: 'Conflict already resolved' } });
    const unknown = await api(w1, auth.w1, 'POST', `/api/sync/v1/conflicts/nope/resolve`, {
      action: 'keep_central',
    });
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Conflict not found' } });
    await syncUntilQuiet(w1);
    const onCentral = await central.context.db
      .selectFrom('sync_conflicts')
      .select(['status', 'resolution'])
      .where('id', '=', item!.id)
      .executeTakeFirstOrThrow();
    expect(onCentral).toEqual({ status: 'resolved', resolution: 'keep_central' });
  }, 60_000);

  it('edits of different fields on two workstations both apply; the same address field conflicts, and apply mine wins it back', async () => {
    const { central, w1, w2, proxy1, auth } = await cluster();
    const code = 'PS-SUM-2611004';
    proxy1.setMode('drop');
    const address = (city: string) => ({
      address_data: {
        ship_to_contact: {
          name: 'Dock',
          address_line1: '1 Main St',
          city,
          country: 'US',
          zip: '89501',
        },
      },
    });
    expect(
      (
        await api(w1, auth.w1, 'PUT', '/api/v1/orders', {
          picksheet_code: code,
          dept_number: 'D-W1',
          ...address('Reno'),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api(w2, auth.w2, 'PUT', '/api/v1/orders', {
          picksheet_code: code,
          po_number: 'PO-W2',
          ...address('Sparks'),
        })
      ).status,
    ).toBe(200);
    await syncUntilQuiet(w2);
    proxy1.setMode('pass');
    await syncUntilQuiet(w1);

    const onCentral = await orderByCode(central, code);
    expect(onCentral.po_number).toBe('PO-W2');
    expect(JSON.parse(onCentral.ship_to_json!).city).toBe('Sparks');
    // Only the field that changed on both sides is held back; W1's other edit applied.
    expect(onCentral.dept_number).toBe('D-W1');
    const local = await orderByCode(w1, code);
    expect(local.po_number).toBe('PO-W2');
    expect(local.dept_number).toBe('D-W1');
    expect(JSON.parse(local.ship_to_json!).city).toBe('Sparks');

    const list = await api(w1, auth.w1, 'GET', '/api/sync/v1/conflicts');
    const item = list.body.data.items[0]!;
    expect(item.reason).toBe('Changed on the central service since this workstation read it');
    const field = item!.fields.find((f) => f.field === 'ship_to_json')!;
    expect(JSON.parse(String(field.yours)).city).toBe('Reno');
    expect(JSON.parse(String(field.central)).city).toBe('Sparks');

    const applied = await api(w1, auth.w1, 'POST', `/api/sync/v1/conflicts/${item!.id}/resolve`, {
      action: 'apply_mine',
    });
    expect(applied.status).toBe(200);
    await syncUntilQuiet(w1);
    expect(JSON.parse((await orderByCode(central, code)).ship_to_json!).city).toBe('Reno');
    await syncUntilQuiet(w2);
    expect(JSON.parse((await orderByCode(w2, code)).ship_to_json!).city).toBe('Reno');
  }, 60_000);

  it('a conflict is seen only by users of its facility and brand', async () => {
    const { central, w1, proxy1, auth } = await cluster();
    await seedInto(central, {
      users: [
        // Brand 2 at Reno: the conflict's order is brand 1's.
        {
          email: 'brm-reno@example.com',
          password: 'password-brm',
          brand_id: BRAND_2,
          facility_ids: [RENO],
        },
        // Brand 1, with an admin grant in another facility of the same brand only.
        {
          email: 'sum-savannah@example.com',
          password: 'password-sum',
          brand_id: BRAND_1,
          facility_ids: [SAVANNAH],
          admin: [{ brand_id: BRAND_1, facility_id: SAVANNAH }],
        },
      ],
    });
    const order = await orderByCode(central, 'PS-SUM-2611001');
    proxy1.setMode('drop');
    await api(w1, auth.w1, 'PUT', '/api/v1/orders', {
      picksheet_code: order.picksheet_code,
      po_number: 'X',
    });
    await api(central, auth.central, 'POST', `/api/v1/orders/${order.id}/cancel`, {});
    proxy1.setMode('pass');
    await syncUntilQuiet(w1);
    const all = await api(central, auth.central, 'GET', '/api/sync/v1/conflicts');
    expect(all.body.data.total_count).toBe(1);
    const id = all.body.data.items[0]!.id;
    for (const [email, password] of [
      ['brm-reno@example.com', 'password-brm'],
      ['sum-savannah@example.com', 'password-sum'],
    ]) {
      const other = await signIn(central, email, password);
      const list = await api(central, other, 'GET', '/api/sync/v1/conflicts');
      expect(list.body.data).toMatchObject({ total_count: 0, items: [] });
      expect((await api(central, other, 'GET', '/api/sync/v1/status')).body.conflicts).toBe(0);
      const resolve = await api(central, other, 'POST', `/api/sync/v1/conflicts/${id}/resolve`, {
        action: 'keep_central',
      });
      expect(resolve).toMatchObject({ status: 404, body: { message: 'Conflict not found' } });
    }
  }, 60_000);

  it('a refusal the central ties to no facility of the device (its order moved away) is listed, counted and dismissed there', async () => {
    const central = await start.central();
    // Brand 2 at Reno, on the same workstation: the refused edit was of a brand 1 order.
    const brm = { email: 'brm-reno@example.com', password: 'password-brm' };
    await seedInto(central, { users: [{ ...brm, brand_id: BRAND_2, facility_ids: [RENO] }] });
    const proxy1 = await start.proxyTo(central);
    const w1 = await start.workstation(proxy1.url, DEVICES.w1);
    const auth = { central: await signIn(central), w1: await signIn(w1) };
    const code = 'PS-SUM-2611001';
    proxy1.setMode('drop');
    const edit = await api(w1, auth.w1, 'PUT', '/api/v1/orders', {
      picksheet_code: code,
      po_number: 'OFFLINE-EDIT',
    });
    expect(edit.status).toBe(200);
    const moved = await api(central, auth.central, 'PUT', '/api/v1/orders/change-facility', {
      picksheet_code: code,
      facility_id: COLUMBUS,
    });
    expect(moved.status).toBe(200);
    proxy1.setMode('pass');
    await syncUntilQuiet(w1);
    const stored = () =>
      central.context.db
        .selectFrom('sync_conflicts')
        .select(['id', 'facility_id', 'status', 'resolution'])
        .where('client_id', '=', DEVICES.w1.id)
        .execute();
    const [refusal] = await stored();
    expect(refusal).toMatchObject({ facility_id: null, status: 'open' });
    expect(
      (
        await central.context.db
          .selectFrom('sync_conflicts')
          .select('brand_id')
          .where('id', '=', refusal!.id)
          .executeTakeFirstOrThrow()
      ).brand_id,
    ).toBe(BRAND_1);

    const status = await api(w1, auth.w1, 'GET', '/api/sync/v1/status');
    expect(status.body).toMatchObject({ pending_mutations: 0, conflicts: 1 });
    const list = await api(w1, auth.w1, 'GET', '/api/sync/v1/conflicts');
    expect(list.body.data.total_count).toBe(1);
    const [item] = list.body.data.items;
    const brmAuth = await signIn(w1, brm.email, brm.password);
    // It keeps the order's brand (the central's own fact), so a user of another brand at the
    // same workstation never sees the central's values of a brand 1 order.
    const forBrm = await api(w1, brmAuth, 'GET', '/api/sync/v1/conflicts');
    expect(forBrm.body.data.items).toEqual([]);
    // No order of the device's to write to: only "Keep central's".
    expect(item).toMatchObject({
      id: refusal!.id,
      device_id: DEVICES.w1.id,
      offers: ['keep_central'],
    });
    const applyMine = await api(w1, auth.w1, 'POST', `/api/sync/v1/conflicts/${item!.id}/resolve`, {
      action: 'apply_mine',
    });
    expect([403, 409]).toContain(applyMine.status);
    const dismissed = await api(w1, auth.w1, 'POST', `/api/sync/v1/conflicts/${item!.id}/resolve`, {
      action: 'keep_central',
    });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.data).toMatchObject({ status: 'resolved', resolution: 'keep_central' });

    await syncUntilQuiet(w1);
    expect(await stored()).toEqual([
      { id: refusal!.id, facility_id: null, status: 'resolved', resolution: 'keep_central' },
    ]);
    const after = await api(w1, auth.w1, 'GET', '/api/sync/v1/status');
    expect(after.body).toMatchObject({ pending_mutations: 0, conflicts: 0 });
  }, 60_000);
});
