import { describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/http/server';
import {
  api,
  centralForAllTests,
  COLUMBUS,
  DEVICES,
  orderByCode,
  RENO,
  SAVANNAH,
  seedInto,
  signIn,
} from './helpers/cluster';
import { signInDevice, syncCall } from './helpers/raw-push';

/**
 * Issue 18, item 5: who may answer "apply mine" and what it writes, on the central (a clerk's
 * resolve) and for a resolution pushed by a workstation. Pushes are crafted as a device would
 * send them, so each rule is tested on its own; the central's rows are asserted afterwards.
 */

const BRAND_1 = '0b000000-0000-4000-8000-000000000001';
const BRAND_2 = '0b000000-0000-4000-8000-000000000002';

let central: RunningService;
let admin: string;
const users: Record<string, { auth: string; id: string }> = {};
let seq = 0;

const OTHERS = {
  // Sees Reno, admin nowhere.
  clerk: { facility_ids: [RENO, COLUMBUS, SAVANNAH], admin: [] },
  // Admin of the same brand at another facility of the same organisation.
  columbus: {
    facility_ids: [RENO, COLUMBUS],
    admin: [{ brand_id: BRAND_1, facility_id: COLUMBUS }],
  },
  // Admin of the same brand in another organisation.
  savannah: {
    facility_ids: [RENO, SAVANNAH],
    admin: [{ brand_id: BRAND_1, facility_id: SAVANNAH }],
  },
  // Admin of another brand at the same facility.
  bramble: { facility_ids: [RENO], admin: [{ brand_id: BRAND_2, facility_id: RENO }] },
} as const;

centralForAllTests(async (started) => {
  central = started;
  await seedInto(central, {
    users: Object.entries(OTHERS).map(([name, grants]) => ({
      email: `${name}@example.com`,
      password: `password-${name}`,
      facility_ids: [...grants.facility_ids],
      admin: [...grants.admin],
    })),
  });
  admin = await signIn(central);
  for (const name of [...Object.keys(OTHERS), 'demo']) {
    const email = `${name}@example.com`;
    const auth = name === 'demo' ? admin : await signIn(central, email, `password-${name}`);
    const row = await central.context.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    users[name] = { auth, id: row.id };
  }
});

async function push(changes: unknown[]) {
  const auth = await signInDevice(central.url, DEVICES.w1);
  seq += 1;
  const answer = await syncCall(central.url, '/api/sync/v1/push', {
    method: 'POST',
    auth,
    body: JSON.stringify({
      mutations: [{ seq, name: 'TEST', args: { changes }, at: '2026-11-24T10:00:00.000Z' }],
    }),
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

const order = (code: string) => orderByCode(central, code);

const conflictRow = (id: string) =>
  central.context.db
    .selectFrom('sync_conflicts')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const newestConflict = () =>
  central.context.db
    .selectFrom('sync_conflicts')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .executeTakeFirstOrThrow();

/** A field conflict on `po_number`: the device read a value the central no longer has. */
async function poConflict(code: string, mine: string) {
  const current = await order(code);
  const answer = await push([
    {
      t: 'orders',
      op: 'U',
      k: [current.id],
      old: { ...current, po_number: 'READ-BEFORE' },
      new: { ...current, po_number: mine },
    },
  ]);
  expect(answer.conflicts).toBe(1);
  const conflict = await newestConflict();
  expect(conflict).toMatchObject({ order_id: current.id, status: 'open', facility_id: RENO });
  return conflict;
}

const resolve = (auth: string, id: string, action = 'apply_mine') =>
  api(central, auth, 'POST', `/api/sync/v1/conflicts/${id}/resolve`, { action });

const listed = async (auth: string, id: string) =>
  (await api(central, auth, 'GET', '/api/sync/v1/conflicts')).body.data.items.find(
    (item) => item.id === id,
  );

describe('apply mine on the central', () => {
  it('needs an admin grant for the conflict’s brand at its facility', async () => {
    const code = 'PS-SUM-2611001';
    const before = await order(code);
    const conflict = await poConflict(code, 'PO-MINE');
    for (const name of Object.keys(OTHERS)) {
      const user = users[name]!;
      // Each sees the conflict (a Reno user), but is offered no Apply mine.
      expect((await listed(user.auth, conflict.id))?.offers).toEqual(['keep_central']);
      const answer = await resolve(user.auth, conflict.id);
      expect(answer, name).toMatchObject({
        status: 403,
        body: { message: 'Apply mine needs an admin grant for the order’s brand at its facility' },
      });
    }
    expect((await order(code)).po_number).toBe(before.po_number);
    expect((await conflictRow(conflict.id)).status).toBe('open');

    expect((await listed(admin, conflict.id))?.offers).toEqual(['keep_central', 'apply_mine']);
    expect((await resolve(admin, conflict.id)).status).toBe(200);
    expect((await order(code)).po_number).toBe('PO-MINE');
    // Replayed as the order update command: its log row names the order and the values.
    const logged = await central.context.db
      .selectFrom('transactions')
      .select(['action_type', 'request_payload'])
      .where('order_id', '=', before.id)
      .where('action_type', '=', 'INGEST_ORDER_PUT')
      .execute();
    expect(logged.map((row) => JSON.parse(row.request_payload!).po_number)).toContain('PO-MINE');
    expect(await conflictRow(conflict.id)).toMatchObject({
      status: 'resolved',
      resolution: 'apply_mine',
      resolved_by: users.demo!.id,
    });
  });

  it('is neither offered nor accepted once the order is Shipped or Cancelled (Shipped wins)', async () => {
    const code = 'PS-SUM-2611004';
    const conflict = await poConflict(code, 'PO-LATE');
    await central.context.db
      .updateTable('orders')
      .set({ status: 'Shipped' })
      .where('picksheet_code', '=', code)
      .execute();
    expect((await listed(admin, conflict.id))?.offers).toEqual(['keep_central']);
    const answer = await resolve(admin, conflict.id);
    expect(answer.status).toBe(409);
    expect(answer.body.message).toMatch(/^Order PS-SUM-2611004 is Shipped on the central service/);
    expect((await order(code)).po_number).not.toBe('PO-LATE');
    expect((await conflictRow(conflict.id)).status).toBe('open');
    // A refusal because of a final status offers no Apply mine either.
    const shipped = await order('PS-SUM-2611011');
    await push([
      { t: 'orders', op: 'U', k: [shipped.id], old: shipped, new: { ...shipped, po_number: 'X' } },
    ]);
    const refused = await newestConflict();
    expect(refused.reason).toBe('Order PS-SUM-2611011 was already Shipped on the central service');
    expect((await listed(admin, refused.id))?.offers).toEqual(['keep_central']);
    expect((await resolve(admin, refused.id)).status).toBe(409);
    expect((await keepCentral(refused.id)).status).toBe(200);
  });

  it('writes only the fields of rows that belong to the conflict’s order', async () => {
    const code = 'PS-SUM-2611007';
    const mine = await order(code);
    const other = await order('PS-SUM-2611005'); // Savannah, another organisation
    const item = await central.context.db
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', '=', other.id)
      .executeTakeFirstOrThrow();
    // Refused for scope: the conflict keeps both rows' values, tied to the Reno order.
    await push([
      { t: 'orders', op: 'U', k: [mine.id], old: mine, new: { ...mine, dept_number: 'D-MINE' } },
      { t: 'order_items', op: 'U', k: [item.id], old: item, new: { ...item, quantity: 999999 } },
    ]);
    const conflict = await newestConflict();
    expect(conflict.order_id).toBe(mine.id);
    expect(JSON.parse(conflict.fields_json)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ table: 'orders', field: 'dept_number', yours: 'D-MINE' }),
        expect.objectContaining({ table: 'order_items', field: 'quantity', yours: 999999 }),
      ]),
    );
    expect((await resolve(admin, conflict.id)).status).toBe(200);
    expect((await order(code)).dept_number).toBe('D-MINE');
    const after = await central.context.db
      .selectFrom('order_items')
      .select('quantity')
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(after.quantity).toBe(item.quantity);
  });
});

const keepCentral = (id: string) => resolve(admin, id, 'keep_central');

describe('parallel answers', () => {
  it('settle a conflict once under 50 parallel resolves', async () => {
    const code = 'PS-SUM-2611007';
    const current = await order(code);
    const conflict = await poConflict(code, 'PO-RACE');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        resolve(admin, conflict.id, i % 2 === 0 ? 'apply_mine' : 'keep_central'),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(49);
    const row = await conflictRow(conflict.id);
    expect(row.status).toBe('resolved');
    const logged = await central.context.db
      .selectFrom('transactions')
      .select('request_payload')
      .where('order_id', '=', current.id)
      .where('action_type', '=', 'INGEST_ORDER_PUT')
      .execute();
    const replays = logged.filter((r) => JSON.parse(r.request_payload!).po_number === 'PO-RACE');
    expect(replays).toHaveLength(row.resolution === 'apply_mine' ? 1 : 0);
    expect((await order(code)).po_number).toBe(
      row.resolution === 'apply_mine' ? 'PO-RACE' : current.po_number,
    );
  });
});

describe('what a refusal is tied to', () => {
  it('names a facility and brand only where the device serves the facility and the brand works there', async () => {
    const id = 'a0000000-0000-4000-8000-00000000e001';
    const row = {
      id,
      brand_id: BRAND_1,
      retailer_id: '0e000000-0000-4000-8000-000000000001',
      facility_id: SAVANNAH,
      picksheet_code: 'PS-ELSEWHERE',
      status: 'Open',
      created_at: '2026-11-24T10:00:00.000Z',
      updated_at: '2026-11-24T10:00:00.000Z',
    };
    expect((await push([{ t: 'orders', op: 'I', k: [id], new: row }])).rejected).toBe(1);
    const refused = await newestConflict();
    // Kept for the device that sent it, never shown to Savannah's users.
    expect(refused).toMatchObject({ order_id: null, facility_id: null, brand_id: null });
    expect(JSON.parse(refused.fields_json)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          table: 'orders',
          field: 'picksheet_code',
          yours: 'PS-ELSEWHERE',
        }),
      ]),
    );
  });
});

describe('a resolution pushed by a workstation is judged the same way', () => {
  /** What a workstation pushes when a clerk there answers "apply mine". */
  async function pushedApplyMine(
    conflictId: string,
    resolvedBy: string,
    rows: { code: string; po: string }[],
  ) {
    const stored = await conflictRow(conflictId);
    const changes: unknown[] = [
      {
        t: 'sync_conflicts',
        op: 'U',
        k: [conflictId],
        old: stored,
        new: {
          ...stored,
          status: 'resolved',
          resolution: 'apply_mine',
          resolved_by: resolvedBy,
          resolved_at: '2026-11-24T10:00:00.000Z',
        },
      },
    ];
    for (const row of rows) {
      const current = await order(row.code);
      changes.push({
        t: 'orders',
        op: 'U',
        k: [current.id],
        old: current,
        new: { ...current, po_number: row.po },
      });
    }
    return push(changes);
  }

  it('refuses it from a user without the grant, over another order, or over a shipped one', async () => {
    const code = 'PS-SUM-2611001';
    const conflict = await poConflict(code, 'PO-PUSHED');
    const before = (await order(code)).po_number;
    const cases: [string, string, { code: string; po: string }[], string][] = [
      ['clerk', users.clerk!.id, [{ code, po: 'PO-PUSHED' }], 'admin grant'],
      ['savannah admin', users.savannah!.id, [{ code, po: 'PO-PUSHED' }], 'admin grant'],
      ['columbus admin', users.columbus!.id, [{ code, po: 'PO-PUSHED' }], 'admin grant'],
      [
        'another order',
        users.demo!.id,
        [
          { code, po: 'PO-PUSHED' },
          { code: 'PS-SUM-2611007', po: 'PO-SNEAKED' },
        ],
        'only the fields of the conflict’s order',
      ],
    ];
    for (const [what, userId, rows, reason] of cases) {
      const answer = await pushedApplyMine(conflict.id, userId, rows);
      expect(answer.rejected, what).toBe(1);
      expect((await newestConflict()).reason, what).toContain(reason);
      expect((await conflictRow(conflict.id)).status, what).toBe('open');
      expect((await order(code)).po_number, what).toBe(before);
      expect((await order('PS-SUM-2611007')).po_number, what).not.toBe('PO-SNEAKED');
    }
    // A device cannot record a conflict, nor rewrite what one says.
    const stored = await conflictRow(conflict.id);
    expect(
      (
        await push([
          { t: 'sync_conflicts', op: 'I', k: ['forged'], new: { ...stored, id: 'forged' } },
        ])
      ).rejected,
    ).toBe(1);
    expect(
      (
        await push([
          {
            t: 'sync_conflicts',
            op: 'U',
            k: [conflict.id],
            old: stored,
            new: { ...stored, facility_id: SAVANNAH },
          },
        ])
      ).rejected,
    ).toBe(1);
    expect((await conflictRow(conflict.id)).facility_id).toBe(RENO);

    // An admin of the brand at Reno: applied, as on the central.
    const applied = await pushedApplyMine(conflict.id, users.demo!.id, [{ code, po: 'PO-PUSHED' }]);
    expect(applied).toMatchObject({ applied: 1, rejected: 0 });
    expect((await order(code)).po_number).toBe('PO-PUSHED');
    expect(await conflictRow(conflict.id)).toMatchObject({
      status: 'resolved',
      resolution: 'apply_mine',
    });
  });

  it('refuses it once the order is Shipped', async () => {
    const code = 'PS-BRM-2611003';
    const conflict = await poConflict(code, 'PO-AFTER');
    await central.context.db
      .updateTable('orders')
      .set({ status: 'Shipped' })
      .where('picksheet_code', '=', code)
      .execute();
    const answer = await pushedApplyMine(conflict.id, users.demo!.id, []);
    expect(answer.rejected).toBe(1);
    expect((await newestConflict()).reason).toMatch(/is Shipped on the central service/);
    expect((await conflictRow(conflict.id)).status).toBe('open');
  });
});
