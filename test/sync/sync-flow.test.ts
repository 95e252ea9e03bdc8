import { describe, expect, it } from 'vitest';
import { describeEngines } from '../helpers/engines';
import {
  api,
  closedAfterEach,
  DEVICES,
  eventually,
  orderByCode,
  RENO,
  signIn,
  starters,
  startWorkstation,
  syncUntilQuiet,
  tempDataDir,
} from './helpers/cluster';
import { startService, type RunningService } from '../../src/server/http/server';

const running = closedAfterEach();

describeEngines('sync: a central and two workstations', (engine) => {
  const start = starters(running, engine);
  it('a fresh workstation pulls its facilities, an edit goes up and reaches the other', async () => {
    const central = await start.central();
    const w1 = await start.workstation(central.url, DEVICES.w1);
    const w2 = await start.workstation(central.url, DEVICES.w2);

    const auth1 = await signIn(w1);
    const orders = await w1.context.db
      .selectFrom('orders')
      .select(['id', 'facility_id', 'picksheet_code'])
      .execute();
    expect(orders.length).toBeGreaterThan(0);
    expect(new Set(orders.map((o) => o.facility_id))).toEqual(new Set([RENO]));

    const edit = await api(w1, auth1, 'PUT', '/api/v1/orders', {
      picksheet_code: 'PS-SUM-2611001',
      po_number: 'PO-FROM-W1',
    });
    expect(edit.status).toBe(200);
    const status = await api(w1, auth1, 'GET', '/api/sync/v1/status');
    expect(status.body.role).toBe('workstation');
    await syncUntilQuiet(w1);
    const onCentral = await orderByCode(central, 'PS-SUM-2611001');
    expect(onCentral.po_number).toBe('PO-FROM-W1');
    await syncUntilQuiet(w2);
    const onW2 = await orderByCode(w2, 'PS-SUM-2611001');
    expect(onW2.po_number).toBe('PO-FROM-W1');
    const after = await api(w1, auth1, 'GET', '/api/sync/v1/status');
    expect(after.body).toMatchObject({
      role: 'workstation',
      online: true,
      pending_mutations: 0,
      conflicts: 0,
    });
    await eventually(() => after.body.last_pull_at !== null);

    // Written centrally, read everywhere: a workstation refuses these writes.
    const brand = '0b000000-0000-4000-8000-000000000001';
    const refusals = [
      await api(w1, auth1, 'PUT', `/api/v1/billing/prices/${brand}`, { prices: {} }),
      await api(w1, auth1, 'PUT', `/api/v1/brands/${brand}/gs1-prefix`, {
        gs1_company_prefix: '0614141',
      }),
      await api(w1, auth1, 'POST', '/api/v1/chargebacks/import', { brand_id: brand, csv: 'x' }),
      await api(w1, auth1, 'POST', '/api/v1/pos-reports/import', { brand_id: brand, csv: 'x' }),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(409);
      expect(refusal.body.message).toBe(
        'This is changed on the central service only; a workstation receives it from there',
      );
    }
  }, 60_000);
});

describeEngines('sync: the mutation log on a workstation', (engine) => {
  const start = starters(running, engine);
  it('each local write appends one mutation named after it; pushed ones are pruned after 30 days without reusing a seq', async () => {
    const central = await start.central();
    const w1 = await start.workstation(central.url, DEVICES.w1, { client: { intervalMs: 60_000 } });
    const auth = await signIn(w1);
    const mutations = () =>
      w1.context.db
        .selectFrom('sync_mutations')
        .select(['seq', 'name', 'args'])
        .where('client_id', '=', DEVICES.w1.id)
        .orderBy('seq')
        .execute();
    const before = (await mutations()).length;
    expect(
      (
        await api(w1, auth, 'PUT', '/api/v1/orders', {
          picksheet_code: 'PS-SUM-2611001',
          po_number: 'P1',
        })
      ).status,
    ).toBe(200);
    const order = '0d000000-0000-4000-8000-000000000001';
    expect((await api(w1, auth, 'POST', `/api/v1/orders/${order}/start-picking`, {})).status).toBe(
      200,
    );
    // A refused step writes only its log row: one mutation too.
    expect((await api(w1, auth, 'POST', `/api/v1/orders/${order}/ship`, {})).status).toBe(409);
    const after = await mutations();
    expect(after.length - before).toBe(3);
    const added = after.slice(before);
    expect(added.map((m) => m.name)).toEqual(['INGEST_ORDER_PUT', 'START_PICKING', 'SEND_ASN']);
    expect(added.map((m) => m.seq)).toEqual([before + 1, before + 2, before + 3]);
    const tables = (m: { args: string }) =>
      [
        ...new Set((JSON.parse(m.args) as { changes: { t: string }[] }).changes.map((c) => c.t)),
      ].sort();
    expect(tables(added[0]!)).toEqual(['orders', 'transactions']);
    expect(tables(added[2]!)).toEqual(['transactions']);

    await syncUntilQuiet(w1);
    const last = after[after.length - 1]!.seq;
    await w1.context.db
      .updateTable('sync_mutations')
      .set({ at: '2020-01-01T00:00:00.000Z' })
      .execute();
    await syncUntilQuiet(w1);
    expect(await mutations()).toEqual([]);
    expect(
      (
        await api(w1, auth, 'PUT', '/api/v1/orders', {
          picksheet_code: 'PS-SUM-2611001',
          po_number: 'P2',
        })
      ).status,
    ).toBe(200);
    expect((await mutations()).map((m) => m.seq)).toEqual([last + 1]);
    await syncUntilQuiet(w1);
    const onCentral = await central.context.db
      .selectFrom('orders')
      .select('po_number')
      .where('id', '=', order)
      .executeTakeFirstOrThrow();
    expect(onCentral.po_number).toBe('P2');
  }, 60_000);
});

describe('sync: a workstation data dir', () => {
  it('refuses a data dir holding data never synced, and one that belongs to another device', async () => {
    const dir = tempDataDir('standalone');
    const standalone = await startService({
      host: '127.0.0.1',
      port: 0,
      dataDir: dir,
      seed: 'demo',
      uiDir: null,
      outboxDrain: false,
    });
    await standalone.close();
    await expect(
      startWorkstation('http://127.0.0.1:9', DEVICES.w1, { dataDir: dir }),
    ).rejects.toThrow(
      'This data dir holds local data that was never synced; start the workstation with an empty --data-dir',
    );
    const own = tempDataDir('own');
    await (await startWorkstation('http://127.0.0.1:9', DEVICES.w1, { dataDir: own })).close();
    await expect(
      startWorkstation('http://127.0.0.1:9', DEVICES.w2, { dataDir: own }),
    ).rejects.toThrow(
      `This data dir belongs to device ${DEVICES.w1.id}; start with that --device-id or an empty --data-dir`,
    );
  }, 60_000);
});

describeEngines('sync: the status says why a round failed', (engine) => {
  const start = starters(running, engine);
  it('a wrong device secret and an unreachable central read as such; a workstation whose rounds go through has none', async () => {
    const central = await start.central();
    const good = await start.workstation(central.url, DEVICES.w1);
    const auth = await signIn(good);
    expect((await api(good, auth, 'GET', '/api/sync/v1/status')).body).toMatchObject({
      last_error: null,
    });

    const wrong = await startWorkstation(central.url, {
      ...DEVICES.w2,
      secret: 'not-the-secret-at-all',
    });
    running.push(wrong);
    const status = async (service: RunningService) =>
      (await api(service, await signIn(central), 'GET', '/api/sync/v1/status')).body;
    await wrong.context.sync!.client!.syncNow();
    // No users came down to sign in with, so read the status through the domain function.
    const { syncStatus } = await import('../../src/server/sync/conflicts');
    const user = { id: 'nobody', email: 'x', brandId: null };
    expect(await syncStatus(wrong.context, user)).toMatchObject({
      online: true,
      last_error: 'The central service answered 401: Unknown device or wrong device secret',
    });
    const away = await startWorkstation('http://127.0.0.1:9', DEVICES.w3);
    running.push(away);
    await away.context.sync!.client!.syncNow();
    expect(await syncStatus(away.context, user)).toMatchObject({
      online: false,
      last_error: 'The central service could not be reached',
    });
    expect((await status(central)).last_error).toBe(null);
  }, 60_000);
});
