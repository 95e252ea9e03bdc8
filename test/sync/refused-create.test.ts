import { expect, it } from 'vitest';
import { describeEngines } from '../helpers/engines';
import type { RunningService } from '../../src/server/http/server';
import {
  api,
  closedAfterEach,
  DEVICES,
  RENO,
  SAVANNAH,
  seedInto,
  signIn,
  starters,
  syncUntilQuiet,
} from './helpers/cluster';

/** Issue 18, item 10: a create refused at the heal is kept, shown, and can be made again. */

const BRAND_1 = '0b000000-0000-4000-8000-000000000001';
const BRAND_2 = '0b000000-0000-4000-8000-000000000002';
const RETAILER = '0e000000-0000-4000-8000-000000000001';
const CODE = 'PS-OFFLINE-1';

const running = closedAfterEach();

const create = (service: RunningService, auth: string, po: string, sku: string) =>
  api(service, auth, 'POST', '/api/v1/orders/create', {
    picksheet_code: CODE,
    brand_id: BRAND_1,
    retailer_id: RETAILER,
    facility_id: RENO,
    po_number: po,
    items: [{ sku, quantity: 7 }],
  });

const ordersCoded = (service: RunningService, code: string) =>
  service.context.db.selectFrom('orders').selectAll().where('picksheet_code', '=', code).execute();

describeEngines('a refused offline create', (engine) => {
  const start = starters(running, engine);
  it('keeps its values, order and brand; is counted and shown; and is created again under a new code', async () => {
    const central = await start.central();
    await seedInto(central, {
      users: [
        // Summit's own user (its brand's), and Bramble's at the same facility.
        {
          email: 'sum-reno@example.com',
          password: 'password-sum',
          brand_id: BRAND_1,
          facility_ids: [RENO],
        },
        {
          email: 'brm-reno@example.com',
          password: 'password-brm',
          brand_id: BRAND_2,
          facility_ids: [RENO],
        },
        // Summit's admin at another facility of the same brand only.
        {
          email: 'sum-savannah@example.com',
          password: 'password-sum',
          brand_id: BRAND_1,
          facility_ids: [SAVANNAH],
          admin: [{ brand_id: BRAND_1, facility_id: SAVANNAH }],
        },
      ],
    });
    const proxy1 = await start.proxyTo(central);
    const proxy2 = await start.proxyTo(central);
    const w1 = await start.workstation(proxy1.url, DEVICES.w1);
    const w2 = await start.workstation(proxy2.url, DEVICES.w2);
    const auth1 = await signIn(w1, 'sum-reno@example.com', 'password-sum');
    const auth2 = await signIn(w2);

    // Both offline, each clerk creates the same picksheet code at Reno and gets a 201.
    proxy1.setMode('drop');
    proxy2.setMode('drop');
    const lost = await create(w1, auth1, 'PO-FROM-W1', 'SKU-W1');
    expect(lost.status).toBe(201);
    const lostId = (lost.body.data as unknown as { order_id: string }).order_id;
    expect((await create(w2, auth2, 'PO-FROM-W2', 'SKU-W2')).status).toBe(201);

    proxy2.setMode('pass');
    await syncUntilQuiet(w2);
    proxy1.setMode('pass');
    await syncUntilQuiet(w1);

    // One order everywhere: W2's. W1's is gone from W1.
    expect((await ordersCoded(central, CODE)).map((o) => o.po_number)).toEqual(['PO-FROM-W2']);
    expect((await ordersCoded(w1, CODE)).map((o) => o.po_number)).toEqual(['PO-FROM-W2']);

    // The central keeps what was refused, tied to the refused order's id and brand.
    const stored = await central.context.db
      .selectFrom('sync_conflicts')
      .selectAll()
      .where('client_id', '=', DEVICES.w1.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      order_id: lostId,
      brand_id: BRAND_1,
      facility_id: RENO,
      status: 'open',
      reason: 'The picksheet code is already used at this facility on the central service',
    });
    const fields = JSON.parse(stored.fields_json) as {
      table: string;
      field: string;
      yours: unknown;
    }[];
    expect(fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ table: 'orders', field: 'picksheet_code', yours: CODE }),
        expect.objectContaining({ table: 'orders', field: 'po_number', yours: 'PO-FROM-W1' }),
        expect.objectContaining({ table: 'order_items', field: 'sku', yours: 'SKU-W1' }),
      ]),
    );

    // Counted and listed for the creator (a Summit user), the facility's users and the brand's;
    // not for another brand's user at the same facility.
    const seers = [
      await signIn(central, 'sum-reno@example.com', 'password-sum'),
      await signIn(central),
    ];
    for (const auth of seers) {
      expect((await api(central, auth, 'GET', '/api/sync/v1/status')).body.conflicts).toBe(1);
      const [item] = (await api(central, auth, 'GET', '/api/sync/v1/conflicts')).body.data.items;
      expect(item).toMatchObject({
        order_id: lostId,
        brand_id: BRAND_1,
        picksheet_code: CODE,
        offers: ['keep_central', 'create_with_new_picksheet'],
      });
    }
    const other = await signIn(central, 'brm-reno@example.com', 'password-brm');
    expect((await api(central, other, 'GET', '/api/sync/v1/status')).body.conflicts).toBe(0);
    // Neither another brand at the facility nor the brand's admin elsewhere can make it again.
    const elsewhere = await signIn(central, 'sum-savannah@example.com', 'password-sum');
    for (const outsider of [other, elsewhere]) {
      const path = `/api/sync/v1/conflicts/${stored.id}/create-order`;
      const answer = await api(central, outsider, 'POST', path, { picksheet_code: 'PS-OUTSIDER' });
      expect(answer).toMatchObject({ status: 404, body: { message: 'Conflict not found' } });
    }
    expect(await ordersCoded(central, 'PS-OUTSIDER')).toEqual([]);

    // On the creator's workstation: offered "create with a new picksheet code", never apply mine.
    const list = await api(w1, auth1, 'GET', '/api/sync/v1/conflicts');
    const item = list.body.data.items[0]!;
    expect(item.offers).toEqual(['keep_central', 'create_with_new_picksheet']);
    expect((await api(w1, auth1, 'GET', '/api/sync/v1/status')).body.conflicts).toBe(1);
    const path = `/api/sync/v1/conflicts/${item.id}/create-order`;
    const empty = await api(w1, auth1, 'POST', path, { picksheet_code: ' ' });
    expect(empty.status).toBe(400);
    const taken = await api(w1, auth1, 'POST', path, { picksheet_code: CODE });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain(`picksheet_code ${CODE} already exists at this facility`);
    const applyMine = await api(w1, auth1, 'POST', `/api/sync/v1/conflicts/${item.id}/resolve`, {
      action: 'apply_mine',
    });
    expect(applyMine).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/^The order is not on the central service/) },
    });

    // Fifty clerks at once, each with another code: one order is made, the others hear 409.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api(w1, auth1, 'POST', path, { picksheet_code: `PS-OFFLINE-1-${i}` }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(49);
    const made = answers.find((a) => a.status === 201)!.body.data as unknown as {
      order_id: string;
      conflict: { status: string; resolution: string };
    };
    expect(made.conflict).toMatchObject({ status: 'resolved', resolution: 'created_new' });

    await syncUntilQuiet(w1);
    const onCentral = await central.context.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', made.order_id)
      .executeTakeFirstOrThrow();
    expect(onCentral).toMatchObject({
      po_number: 'PO-FROM-W1',
      brand_id: BRAND_1,
      facility_id: RENO,
    });
    expect(onCentral.picksheet_code).toMatch(/^PS-OFFLINE-1-\d+$/);
    const items = await central.context.db
      .selectFrom('order_items')
      .select(['sku', 'quantity'])
      .where('order_id', '=', made.order_id)
      .execute();
    expect(items).toEqual([{ sku: 'SKU-W1', quantity: 7 }]);
    expect(
      await central.context.db
        .selectFrom('sync_conflicts')
        .select(['status', 'resolution'])
        .where('id', '=', item.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'resolved', resolution: 'created_new' });
    expect(
      await central.context.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('picksheet_code', 'like', 'PS-OFFLINE-1-%')
        .executeTakeFirstOrThrow(),
    ).toEqual({ n: 1 });
  }, 90_000);
});
