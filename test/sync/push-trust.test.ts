import { describe, expect, it } from 'vitest';
import { describeEngines } from '../helpers/engines';
import type { RunningService } from '../../src/server/http/server';
import {
  centralForAllTests,
  COLUMBUS,
  DEVICES,
  OTHER_DEVICES,
  RENO,
  SAVANNAH,
  seedInto,
} from './helpers/cluster';
import { centralRow, rawDevice, type RawDevice, type Row, withoutScope } from './helpers/raw-push';

/**
 * Issue 18, items 1-3: a Reno device's pushes are judged by the central's stored rows and the
 * device's facilities, never by what the payload claims. Each reproduction is pushed with the
 * scope columns, without them, and (where it applies) as an insert over the existing key; the
 * assertions read the central's rows afterwards.
 */

const BRAND_SUMMIT = '0b000000-0000-4000-8000-000000000001';
const BRAND_BRAMBLE = '0b000000-0000-4000-8000-000000000002';
const BRAND_LUMEN = '0b000000-0000-4000-8000-000000000003'; // Savannah (Northwind) only
const ACME = '0a000000-0000-4000-8000-000000000001';
const NORTHWIND = '0a000000-0000-4000-8000-000000000002';
const SUMMIT_BIGBOX_ACME = '0c000000-0000-4000-8000-000000000001';
const LUMEN_HARBOR_NORTHWIND = '0c000000-0000-4000-8000-000000000004';
const SUMMIT_HARBOR_NORTHWIND = '0c000000-0000-4000-8000-000000000005';
const BIG_BOX = '0e000000-0000-4000-8000-000000000001';
const HARBOR = '0e000000-0000-4000-8000-000000000003';
const RENO_OPEN = '0d000000-0000-4000-8000-000000000001'; // Summit, Big Box, Open
const RENO_BRAMBLE_PICKING = '0d000000-0000-4000-8000-000000000003';
const RENO_SUMMIT_PICKING = '0d000000-0000-4000-8000-000000000004';
const RENO_STAGED = '0d000000-0000-4000-8000-000000000007';
const SAVANNAH_PACKED = '0d000000-0000-4000-8000-000000000005';
const RENO_COLUMBUS_DEVICE = OTHER_DEVICES.renoColumbus;

describeEngines('pushes judged by the central’s stored rows', (engine) => {
  let central: RunningService;
  let reno: RawDevice;
  let renoColumbus: RawDevice;
  centralForAllTests(async (started) => {
    central = started;
    await seedInto(central, { devices: [RENO_COLUMBUS_DEVICE] });
    reno = await rawDevice(central, DEVICES.w1);
    renoColumbus = await rawDevice(central, RENO_COLUMBUS_DEVICE);
  }, engine);

  const first = async (table: string, where: string, ...args: unknown[]) => {
    const row = await centralRow(central, table, where, ...args);
    if (!row) throw new Error(`no ${table} row where ${where}`);
    return row;
  };
  const keyOf = (table: string, row: Row) =>
    (table === 'transactions' ? [row.transaction_id] : [row.id]) as string[];

  /** A row change as a device sends it, keyed by `row`'s own key. */
  const insert = (table: string, row: Row) => ({
    t: table,
    op: 'I',
    k: keyOf(table, row),
    new: row,
  });
  const update = (table: string, row: Row, next: Row) => ({
    t: table,
    op: 'U',
    k: keyOf(table, row),
    old: row,
    new: next,
  });
  const remove = (table: string, row: Row) => ({
    t: table,
    op: 'D',
    k: keyOf(table, row),
    old: row,
  });

  /** The shapes a hostile device can give a change of `row` (stored at the central). */
  function variants(table: string, row: Row, op: 'U' | 'D', next?: Row) {
    const k = keyOf(table, row);
    const list: [string, unknown][] = [
      ['with the scope columns', { t: table, op, k, old: row, new: next }],
      [
        'without the scope columns',
        { t: table, op, k, old: withoutScope(row), new: next && withoutScope(next) },
      ],
      ['with nothing but the key', { t: table, op, k, new: next && withoutScope(next) }],
    ];
    if (next) list.push(['as an insert over the key', insert(table, next)]);
    return list;
  }

  async function expectRefused(device: RawDevice, changes: unknown[], reason?: string | RegExp) {
    const answer = await device.push(changes);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ applied: 0, rejected: 1 });
    if (reason) expect(await device.lastConflictReason()).toMatch(reason);
  }

  const OUT_OF_SCOPE = /belongs to a facility this workstation does not serve/;

  describe('a push is judged by the stored row (item 1)', () => {
    it('a Reno device cannot delete a Savannah log row, with or without its facility in the payload', async () => {
      const log = await first('transactions', 'facility_id = ?', SAVANNAH);
      for (const [, change] of variants('transactions', log, 'D')) {
        await expectRefused(reno, [change], OUT_OF_SCOPE);
        expect(await first('transactions', 'transaction_id = ?', log.transaction_id)).toEqual(log);
      }
    });

    it('a Reno device cannot delete a Savannah carton, with or without its order in the payload', async () => {
      const carton = await first('cartons', 'order_id = ?', SAVANNAH_PACKED);
      const skus = await centralRow(central, 'carton_skus', 'carton_id = ?', carton.id);
      for (const [, change] of variants('cartons', carton, 'D')) {
        await expectRefused(reno, [change], OUT_OF_SCOPE);
        expect(await first('cartons', 'id = ?', carton.id)).toEqual(carton);
        expect(await centralRow(central, 'carton_skus', 'carton_id = ?', carton.id)).toEqual(skus);
      }
    });

    it('a Reno device cannot rewrite a Savannah order line to 999999 units of HACKED-BY-RENO', async () => {
      const line = await first('order_items', 'order_id = ?', SAVANNAH_PACKED);
      const hacked = { ...line, sku: 'HACKED-BY-RENO', quantity: 999999 };
      const cases = [
        ...variants('order_items', line, 'U', hacked),
        // The upsert that also claims the line for a Reno order, so an order check would pass.
        [
          'as an insert over the key naming a Reno order',
          insert('order_items', { ...hacked, order_id: RENO_OPEN }),
        ] as [string, unknown],
      ];
      for (const [, change] of cases) {
        await expectRefused(reno, [change]);
        expect(await first('order_items', 'id = ?', line.id)).toEqual(line);
        // The refusal is the Reno device's: not filed under the Savannah order its payload named.
        expect((await reno.lastConflict())?.facility_id).not.toBe(SAVANNAH);
        expect((await reno.lastConflict())?.order_id).not.toBe(SAVANNAH_PACKED);
      }
      expect(await centralRow(central, 'order_items', 'sku = ?', 'HACKED-BY-RENO')).toBeUndefined();
    });

    it('a Reno device cannot move a Reno line into a Savannah order', async () => {
      const line = await first('order_items', 'order_id = ?', RENO_OPEN);
      await expectRefused(
        reno,
        [update('order_items', line, { ...line, order_id: SAVANNAH_PACKED })],
        OUT_OF_SCOPE,
      );
      expect(await first('order_items', 'id = ?', line.id)).toEqual(line);
    });

    it('a Reno device cannot move a Reno order to Savannah', async () => {
      const order = await first('orders', 'id = ?', RENO_OPEN);
      const moved = { ...order, facility_id: SAVANNAH };
      for (const change of [
        update('orders', order, moved),
        update('orders', withoutScope(order), moved),
        { t: 'orders', op: 'U', k: [order.id], new: { facility_id: SAVANNAH } },
        insert('orders', moved),
      ]) {
        await expectRefused(reno, [change]);
        expect(await first('orders', 'id = ?', RENO_OPEN)).toEqual(order);
      }
    });

    it('a Reno device cannot write a log row of another facility, or one with no facility', async () => {
      const template = await first('transactions', 'facility_id = ?', RENO);
      for (const [id, facility] of [
        ['a7000000-0000-4000-8000-000000000001', SAVANNAH],
        ['a7000000-0000-4000-8000-000000000002', null],
      ] as const) {
        const row = { ...template, transaction_id: id, facility_id: facility };
        await expectRefused(reno, [insert('transactions', row)], OUT_OF_SCOPE);
        expect(await centralRow(central, 'transactions', 'transaction_id = ?', id)).toBeUndefined();
      }
      // Its own facility, but naming a Savannah order.
      const id = 'a7000000-0000-4000-8000-000000000003';
      const row = { ...template, transaction_id: id, order_id: SAVANNAH_PACKED };
      await expectRefused(reno, [insert('transactions', row)], OUT_OF_SCOPE);
      expect(await centralRow(central, 'transactions', 'transaction_id = ?', id)).toBeUndefined();
    });

    it('a row whose payload names another key than the change is refused', async () => {
      const line = await first('order_items', 'order_id = ?', RENO_OPEN);
      const savannahLine = await first('order_items', 'order_id = ?', SAVANNAH_PACKED);
      await expectRefused(
        reno,
        [update('order_items', line, { ...line, id: savannahLine.id })],
        /Bad key/,
      );
      expect(await first('order_items', 'id = ?', savannahLine.id)).toEqual(savannahLine);
      expect(await first('order_items', 'id = ?', line.id)).toEqual(line);
    });
  });

  describe('inserts over a key, append-only rows (item 2)', () => {
    it('an insert of the very row the central has is nothing; a different one is refused', async () => {
      const line = await first('order_items', 'order_id = ?', RENO_SUMMIT_PICKING);
      const same = await reno.push([insert('order_items', line)]);
      expect(same.body).toMatchObject({ applied: 1, rejected: 0 });
      await expectRefused(
        reno,
        [insert('order_items', { ...line, quantity: 1 })],
        /already exists on the central service/,
      );
      expect(await first('order_items', 'id = ?', line.id)).toEqual(line);
    });

    it('log rows, activity, BOL versions and snapshots of its own facility are never changed or deleted', async () => {
      const log = await first('transactions', 'facility_id = ?', RENO);
      await expectRefused(
        reno,
        [update('transactions', log, { ...log, execution_status: 'FAILURE' })],
        /never changed/,
      );
      await expectRefused(reno, [remove('transactions', log)], /never deleted/);
      expect(await first('transactions', 'transaction_id = ?', log.transaction_id)).toEqual(log);

      const activity = await first(
        'order_activity',
        'order_id IN (SELECT id FROM orders WHERE facility_id = ?)',
        RENO,
      );
      await expectRefused(reno, [remove('order_activity', activity)], /never deleted/);
      await expectRefused(
        reno,
        [update('order_activity', activity, { ...activity, count: 1000 })],
        /never changed/,
      );
      expect(await first('order_activity', 'id = ?', activity.id)).toEqual(activity);
    });

    it('unpacking a carton deletes its Pack action with it (the one delete of an append-only row)', async () => {
      const template = await first(
        'cartons',
        'order_id IN (SELECT id FROM orders WHERE facility_id = ?)',
        RENO,
      );
      const carton = {
        ...template,
        id: 'a8000000-0000-4000-8000-000000000001',
        order_id: RENO_SUMMIT_PICKING,
        pallet_id: null,
        sscc: '006141410099999990',
      };
      const pack = {
        id: 'a8000000-0000-4000-8000-000000000002',
        order_id: RENO_SUMMIT_PICKING,
        kind: 'ACTION',
        action_type: 'Carton Workflow',
        metric: 'Pack',
        count: 1,
        carton_id: carton.id,
        pallet_id: null,
        sscc: carton.sscc,
        user_id: null,
        created_at: '2026-11-24T10:00:00.000Z',
      };
      const packed = await reno.push([insert('cartons', carton), insert('order_activity', pack)]);
      expect(packed.body).toMatchObject({ applied: 1, rejected: 0 });
      // Its Pack action alone cannot go.
      await expectRefused(reno, [remove('order_activity', pack)], /never deleted/);
      const unpacked = await reno.push([remove('cartons', carton), remove('order_activity', pack)]);
      expect(unpacked.body).toMatchObject({ applied: 1, rejected: 0 });
      expect(await centralRow(central, 'cartons', 'id = ?', carton.id)).toBeUndefined();
      expect(await centralRow(central, 'order_activity', 'id = ?', pack.id)).toBeUndefined();
    });

    it('an order is never deleted by a device', async () => {
      const order = await first('orders', 'id = ?', RENO_SUMMIT_PICKING);
      await expectRefused(reno, [remove('orders', order)], /never deleted/);
      expect(await first('orders', 'id = ?', order.id)).toEqual(order);
    });
  });

  describe('a move between facilities is the move command, checked by the central (item 2)', () => {
    const move = (order: Row, facility: string, extra: Row = {}) =>
      update('orders', order, {
        ...order,
        ...extra,
        facility_id: facility,
        updated_at: '2026-11-25T10:00:00.000Z',
      });

    it('moves an order between two facilities of the device when the brand and retailer rules hold', async () => {
      const order = await first('orders', 'id = ?', RENO_SUMMIT_PICKING);
      const answer = await renoColumbus.push([move(order, COLUMBUS)]);
      expect(answer.body).toMatchObject({ applied: 1, rejected: 0 });
      expect((await first('orders', 'id = ?', order.id)).facility_id).toBe(COLUMBUS);
      // And back: both ends are the device's.
      const back = await renoColumbus.push([move(await first('orders', 'id = ?', order.id), RENO)]);
      expect(back.body).toMatchObject({ applied: 1, rejected: 0 });
      expect((await first('orders', 'id = ?', order.id)).facility_id).toBe(RENO);
    });

    it('refuses a move the command would refuse: brand not at the destination, already packed, or with other edits', async () => {
      const bramble = await first('orders', 'id = ?', RENO_BRAMBLE_PICKING);
      expect(bramble.brand_id).toBe(BRAND_BRAMBLE);
      await expectRefused(
        renoColumbus,
        [move(bramble, COLUMBUS)],
        /brand does not work at that facility/,
      );
      expect(await first('orders', 'id = ?', bramble.id)).toEqual(bramble);

      const staged = await first('orders', 'id = ?', RENO_STAGED);
      await expectRefused(renoColumbus, [move(staged, COLUMBUS)], /not yet packed/);
      expect(await first('orders', 'id = ?', staged.id)).toEqual(staged);

      const open = await first('orders', 'id = ?', RENO_OPEN);
      await expectRefused(
        renoColumbus,
        [move(open, COLUMBUS, { po_number: 'MOVED-AND-EDITED' })],
        /changes nothing else/,
      );
      expect(await first('orders', 'id = ?', open.id)).toEqual(open);
    });
  });

  describe('deliveries cannot be forged (item 3)', () => {
    let n = 0;
    const snapshot = (brand: string, facility: string | null) => {
      n += 1;
      const id = `a9000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
      return {
        t: 'advice_snapshots',
        op: 'I',
        k: [id],
        new: {
          id,
          brand_id: brand,
          facility_id: facility,
          user_id: 'u',
          items_json: '[{"sku":"FORGED","available_quantity":999999}]',
          item_count: 1,
          created_at: '2026-11-24T10:00:00.000Z',
        },
      };
    };
    const delivery = (snapshotId: string, connection: string, forged: Row = {}) => {
      n += 1;
      const id = `aa000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
      return {
        t: 'advice_deliveries',
        op: 'I',
        k: [id],
        new: {
          id,
          snapshot_id: snapshotId,
          connection_id: connection,
          organization_id: NORTHWIND,
          retailer_id: HARBOR,
          kind: 'DIRECT_API',
          status: 'PENDING',
          document: null,
          content_type: null,
          file_name: null,
          interchange_control_number: null,
          error: 'Queued for the central service',
          attempts: 0,
          created_at: '2026-11-24T10:00:00.000Z',
          updated_at: '2026-11-24T10:00:00.000Z',
          next_attempt_at: null,
          auto_retries: 0,
          given_up: 0,
          sender_id: 'central',
          ...forged,
        },
      };
    };
    const stored = (change: { k: string[] }, table: string) =>
      centralRow(central, table, 'id = ?', change.k[0]);

    it('a feed for another organisation’s brand is refused, whatever facility the snapshot names', async () => {
      for (const facility of [RENO, SAVANNAH, null]) {
        const s = snapshot(BRAND_LUMEN, facility);
        const d = delivery(s.k[0]!, LUMEN_HARBOR_NORTHWIND);
        await expectRefused(reno, [s, d]);
        expect(await stored(s, 'advice_snapshots')).toBeUndefined();
        expect(await stored(d, 'advice_deliveries')).toBeUndefined();
      }
      // The snapshot without its facility column at all: brand-wide, refused from a device.
      const s = snapshot(BRAND_SUMMIT, RENO);
      const bare = { ...s, new: withoutScope(s.new) };
      await expectRefused(reno, [bare], OUT_OF_SCOPE);
      expect(await stored(s, 'advice_snapshots')).toBeUndefined();
    });

    it('a delivery needs a snapshot in scope and a connection of its brand in the facility’s organisation', async () => {
      const s = snapshot(BRAND_SUMMIT, RENO);
      expect((await reno.push([s])).body).toMatchObject({ applied: 1 });
      // Savannah's own device may advise at Savannah; Reno's may not deliver that snapshot.
      const atSavannah = snapshot(BRAND_SUMMIT, SAVANNAH);
      const savannah = await rawDevice(central, DEVICES.w3);
      expect((await savannah.push([atSavannah])).body).toMatchObject({ applied: 1 });
      const noSnapshot = delivery(s.k[0]!, SUMMIT_BIGBOX_ACME);
      const forged = [
        delivery(s.k[0]!, LUMEN_HARBOR_NORTHWIND, { organization_id: ACME }), // another brand's
        delivery(s.k[0]!, SUMMIT_HARBOR_NORTHWIND, { organization_id: ACME }), // another organisation's
        delivery(atSavannah.k[0]!, SUMMIT_HARBOR_NORTHWIND), // a snapshot out of scope
        { ...noSnapshot, new: withoutScope(noSnapshot.new) }, // no snapshot named at all
      ];
      for (const d of forged) {
        await expectRefused(reno, [d]);
        expect(await stored(d, 'advice_deliveries')).toBeUndefined();
      }
    });

    it('takes the organisation and retailer from the connection, never from the payload', async () => {
      const s = snapshot(BRAND_SUMMIT, RENO);
      const d = delivery(s.k[0]!, SUMMIT_BIGBOX_ACME, {
        organization_id: NORTHWIND,
        retailer_id: HARBOR,
      });
      expect((await reno.push([s, d])).body).toMatchObject({ applied: 1, rejected: 0 });
      expect(await stored(d, 'advice_deliveries')).toMatchObject({
        connection_id: SUMMIT_BIGBOX_ACME,
        organization_id: ACME,
        retailer_id: BIG_BOX,
        kind: 'EDI_846',
      });
    });
  });
});
