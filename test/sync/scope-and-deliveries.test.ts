import { describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/http/server';
import { ok, startReceiver } from '../helpers/receivers';
import {
  api,
  closedAfterEach,
  COLUMBUS,
  DEVICES,
  EDI_CONNECTION,
  eventually,
  FEED_CONNECTION,
  orderByCode,
  RENO,
  routeConnectionsTo,
  SAVANNAH,
  seedInto,
  signIn,
  starters,
  syncUntilQuiet,
} from './helpers/cluster';

const BRAND = '0b000000-0000-4000-8000-000000000001';
const RETAILER = '0e000000-0000-4000-8000-000000000001';

const running = closedAfterEach();
const start = starters(running);

const facilitiesOf = async (service: RunningService) =>
  new Set(
    (await service.context.db.selectFrom('orders').select('facility_id').execute()).map(
      (o) => o.facility_id,
    ),
  );

describe('sync scope', () => {
  it('a device gets only its facilities; an order created on a workstation keeps its id; a moved order leaves', async () => {
    const central = await start.central();
    await seedInto(central, {
      users: [{ email: 'reno-only@example.com', password: 'password-reno', facility_ids: [RENO] }],
    });
    const w1 = await start.workstation(central.url, DEVICES.w1);
    const w3 = await start.workstation(central.url, DEVICES.w3);
    expect(await facilitiesOf(w1)).toEqual(new Set([RENO]));
    expect(await facilitiesOf(w3)).toEqual(new Set([SAVANNAH]));
    // Rows without a facility reach a device only where they concern it.
    const emails = async (service: RunningService) =>
      (await service.context.db.selectFrom('users').select('email').orderBy('email').execute()).map(
        (u) => u.email,
      );
    expect(await emails(w1)).toContain('reno-only@example.com');
    expect(await emails(w3)).not.toContain('reno-only@example.com');
    const w3Connections = await w3.context.db
      .selectFrom('connections')
      .select('organization_id')
      .execute();
    expect(w3Connections.length).toBeGreaterThan(0);
    expect(new Set(w3Connections.map((c) => c.organization_id))).toEqual(
      new Set(['0a000000-0000-4000-8000-000000000002']),
    );
    const w3Brands = await w3.context.db.selectFrom('brands').select('id').orderBy('id').execute();
    expect(w3Brands.map((b) => b.id)).toEqual([
      '0b000000-0000-4000-8000-000000000001',
      '0b000000-0000-4000-8000-000000000003',
    ]);
    // A grant made later brings the user to the device.
    await seedInto(central, {
      users: [
        {
          email: 'reno-only@example.com',
          password: 'password-reno',
          facility_ids: [RENO, SAVANNAH],
        },
      ],
    });
    await syncUntilQuiet(w3);
    expect(await emails(w3)).toContain('reno-only@example.com');
    // A device given another facility starts over and then holds exactly its new scope.
    await seedInto(central, { devices: [{ ...DEVICES.w1, facility_ids: [RENO, COLUMBUS] }] });
    await syncUntilQuiet(w1);
    expect(await facilitiesOf(w1)).toEqual(new Set([RENO, COLUMBUS]));
    const logFacilities = await w3.context.db
      .selectFrom('transactions')
      .select('facility_id')
      .distinct()
      .execute();
    expect(logFacilities.every((r) => r.facility_id === SAVANNAH || r.facility_id === null)).toBe(
      true,
    );

    const auth1 = await signIn(w1);
    const created = await api(w1, auth1, 'POST', '/api/v1/orders/create', {
      picksheet_code: 'PS-NEW-W1',
      brand_id: BRAND,
      retailer_id: RETAILER,
      facility_id: RENO,
      items: [{ sku: 'SKU-NEW', quantity: 4 }],
    });
    expect(created.status).toBe(201);
    const localOrder = await orderByCode(w1, 'PS-NEW-W1');
    await syncUntilQuiet(w1);
    const centralOrder = await orderByCode(central, 'PS-NEW-W1');
    expect(centralOrder.id).toBe(localOrder.id);

    // Moved to Savannah on the central: Reno's device drops it, Savannah's gets all of it.
    await seedInto(central, {
      connections: [
        {
          id: '0c000000-0000-4000-8000-000000000099',
          organization_id: '0a000000-0000-4000-8000-000000000002',
          brand_id: BRAND,
          retailer_id: RETAILER,
          kind: 'DIRECT_API',
          transport: { type: 'file', directory: 'outbox/savannah' },
        },
      ],
    });
    const authCentral = await signIn(central);
    const moved = await api(central, authCentral, 'PUT', '/api/v1/orders/change-facility', {
      picksheet_code: 'PS-NEW-W1',
      facility_id: SAVANNAH,
    });
    expect(moved.status).toBe(200);
    await syncUntilQuiet(w1);
    await syncUntilQuiet(w3);
    expect(
      await w1.context.db
        .selectFrom('orders')
        .select('id')
        .where('id', '=', localOrder.id)
        .execute(),
    ).toEqual([]);
    expect(
      await w1.context.db
        .selectFrom('order_items')
        .select('id')
        .where('order_id', '=', localOrder.id)
        .execute(),
    ).toEqual([]);
    const onW3 = await w3.context.db
      .selectFrom('order_items')
      .select(['sku', 'quantity'])
      .where('order_id', '=', localOrder.id)
      .execute();
    expect(onW3).toEqual([{ sku: 'SKU-NEW', quantity: 4 }]);
  }, 60_000);
});

describe('sync deliveries', () => {
  it('a connection sent by the workstation goes out from it even offline; one sent by the central goes out from the central, once', async () => {
    const receiver = await startReceiver(ok);
    running.push(receiver);
    const central = await start.central({ outboxDrain: { intervalMs: 100, firstPassMs: 100 } });
    await routeConnectionsTo(central, receiver.url);
    const proxy = await start.proxyTo(central);
    const w1 = await start.workstation(proxy.url, DEVICES.w1, {
      outboxDrain: { intervalMs: 100, firstPassMs: 100 },
    });
    const auth = await signIn(w1);

    proxy.setMode('drop');
    const advice = await api(
      w1,
      auth,
      'POST',
      `/api/v1/inventory/brand/${BRAND}/facility/${RENO}`,
      {
        items: [{ sku: 'SKU-1', available_quantity: 7 }],
      },
    );
    expect(advice.status).toBeLessThan(500);
    const deliveries = await w1.context.db
      .selectFrom('advice_deliveries')
      .select(['id', 'connection_id', 'status', 'sender_id', 'error', 'document'])
      .execute();
    const feed = deliveries.find((d) => d.connection_id === FEED_CONNECTION)!;
    const edi = deliveries.find((d) => d.connection_id === EDI_CONNECTION)!;
    expect(feed).toMatchObject({ status: 'SUCCESS', sender_id: DEVICES.w1.id });
    expect(edi).toMatchObject({
      status: 'PENDING',
      sender_id: 'central',
      error: 'Queued for the central service',
      document: null,
    });
    expect(receiver.received.map((r) => r.path)).toEqual([`/inbox/${FEED_CONNECTION}`]);

    const retry = await api(w1, auth, 'POST', `/api/v1/inventory/deliveries/${edi.id}/retry`, {});
    expect(retry).toMatchObject({
      status: 409,
      body: { message: 'This delivery is sent by the central service' },
    });

    proxy.setMode('pass');
    await syncUntilQuiet(w1);
    await receiver.waitFor(2);
    await eventually(
      async () => {
        await syncUntilQuiet(w1);
        const row = await w1.context.db
          .selectFrom('advice_deliveries')
          .select('status')
          .where('id', '=', edi.id)
          .executeTakeFirstOrThrow();
        return row.status === 'SUCCESS';
      },
      15_000,
      'the central-sent delivery to come down as SUCCESS',
    );
    // A while later, still exactly one request per delivery: nobody sent anything twice.
    await central.drainer?.drainNow();
    await w1.drainer?.drainNow();
    const keys = receiver.received.map((r) => r.headers['idempotency-key']);
    expect(keys.sort()).toEqual([edi.id, feed.id].sort());
    const ediBody = receiver.received.find((r) => r.path === `/inbox/${EDI_CONNECTION}`)!.body;
    expect(ediBody.startsWith('ISA*')).toBe(true);
  }, 60_000);
});
