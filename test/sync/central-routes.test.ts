import { describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/http/server';
import {
  type ApiBody,
  centralForAllTests,
  DEVICES,
  orderByCode,
  seedInto,
  signIn,
} from './helpers/cluster';
import { signInDevice, SYNC_HEADERS, syncCall } from './helpers/raw-push';

let central: RunningService;
centralForAllTests((started) => {
  central = started;
});

const session = (device = DEVICES.w1, secret = device.secret) =>
  syncCall(central.url, '/api/sync/v1/session', {
    method: 'POST',
    body: JSON.stringify({ device_id: device.id, device_secret: secret }),
  });
const token = (device = DEVICES.w1) => signInDevice(central.url, device);
const push = (auth: string, mutations: unknown[]) =>
  syncCall(central.url, '/api/sync/v1/push', {
    method: 'POST',
    auth,
    body: JSON.stringify({ mutations }),
  });

const activityRow = (id: string, orderId: string) => ({
  t: 'order_activity',
  op: 'I',
  k: [id],
  new: {
    id,
    order_id: orderId,
    kind: 'ACTION',
    action_type: 'STICKER',
    metric: 'units',
    count: 1,
    carton_id: null,
    pallet_id: null,
    sscc: null,
    user_id: null,
    created_at: '2026-11-24T10:00:00.000Z',
  },
});

const renoOrderId = async (code = 'PS-SUM-2611001') => (await orderByCode(central, code)).id;

describe('sync routes on the central', () => {
  it('answers 426 without the protocol header or with another version', async () => {
    for (const headers of [
      { 'content-type': 'application/json' },
      { ...SYNC_HEADERS, 'x-sync-protocol': '2' },
    ]) {
      const response = await fetch(`${central.url}/api/sync/v1/session`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ device_id: DEVICES.w1.id, device_secret: DEVICES.w1.secret }),
      });
      expect(response.status).toBe(426);
      const body = (await response.json()) as { message: string; error: { code: string } };
      expect(body.error.code).toBe('UPGRADE_REQUIRED');
      expect(body.message).toMatch(
        /^Upgrade required: this central service speaks sync protocol 1/,
      );
    }
  });

  it('refuses a wrong secret, an unknown device, a user token, and a device token on the user API', async () => {
    expect((await session(DEVICES.w1, 'wrong-secret-wrong')).status).toBe(401);
    expect(
      (await session({ ...DEVICES.w1, id: 'd1000000-0000-4000-8000-0000000000ff' })).status,
    ).toBe(401);
    const userToken = await signIn(central);
    expect((await push(userToken, [])).status).toBe(401);
    const deviceToken = await token();
    const users = await fetch(`${central.url}/api/user-facilities/v1/facilities`, {
      headers: { authorization: deviceToken },
    });
    expect(users.status).toBe(401);
    const pull = await fetch(`${central.url}/api/sync/v1/pull`, {
      headers: { 'x-sync-protocol': '1' },
    });
    expect(pull.status).toBe(401);
  });

  it('applies a seq once: a retry is skipped, a gap answers 409 with the expected seq', async () => {
    const auth = await token(DEVICES.w2);
    const orderId = await renoOrderId();
    const m1 = {
      seq: 1,
      name: 'ACTION',
      args: { changes: [activityRow('a1000000-0000-4000-8000-000000000001', orderId)] },
      at: '2026-11-24T10:00:00.000Z',
    };
    const first = await push(auth, [m1]);
    expect(first).toMatchObject({
      status: 200,
      body: { last_seq: 1, applied: 1, duplicates: 0, rejected: 0 },
    });
    const again = await push(auth, [m1]);
    expect(again).toMatchObject({ status: 200, body: { last_seq: 1, applied: 0, duplicates: 1 } });
    const gap = await push(auth, [{ ...m1, seq: 3 }]);
    expect(gap.status).toBe(409);
    expect(gap.body.error).toMatchObject({ code: 'SYNC_GAP', expected_seq: 2, last_seq: 1 });
    const rows = await central.context.db
      .selectFrom('sync_mutations')
      .select('seq')
      .where('client_id', '=', DEVICES.w2.id)
      .execute();
    expect(rows.map((r) => r.seq)).toEqual([1]);
  });

  it('applies a batch once under 50 parallel pushes of it', async () => {
    const auth = await token(DEVICES.w1);
    const orderId = await renoOrderId();
    const before = await central.context.db
      .selectFrom('sync_clients')
      .select('last_seq')
      .where('client_id', '=', DEVICES.w1.id)
      .executeTakeFirst();
    const start = (before?.last_seq ?? 0) + 1;
    const batch = Array.from({ length: 5 }, (_, i) => ({
      seq: start + i,
      name: 'ACTION',
      args: { changes: [activityRow(`a2000000-0000-4000-8000-00000000000${i}`, orderId)] },
      at: '2026-11-24T10:00:00.000Z',
    }));
    const answers = await Promise.all(Array.from({ length: 50 }, () => push(auth, batch)));
    expect(answers.every((a) => a.status === 200 && a.body.last_seq === start + 4)).toBe(true);
    expect(answers.reduce((n, a) => n + a.body.applied, 0)).toBe(5);
    const activity = await central.context.db
      .selectFrom('order_activity')
      .select('id')
      .where('id', 'like', 'a2000000-%')
      .execute();
    expect(activity).toHaveLength(5);
  });

  it('refuses changes to a facility the device does not serve, as a conflict, and moves on', async () => {
    const auth = await token(DEVICES.w3); // Savannah only
    const orderId = await renoOrderId();
    const answer = await push(auth, [
      {
        seq: 1,
        name: 'ACTION',
        args: { changes: [activityRow('a3000000-0000-4000-8000-000000000001', orderId)] },
        at: '2026-11-24T10:00:00.000Z',
      },
    ]);
    expect(answer.body).toMatchObject({ last_seq: 1, applied: 0, rejected: 1 });
    const conflict = await central.context.db
      .selectFrom('sync_conflicts')
      .selectAll()
      .where('client_id', '=', DEVICES.w3.id)
      .executeTakeFirstOrThrow();
    expect(conflict.reason).toBe('The order belongs to a facility this workstation does not serve');
    const written = await central.context.db
      .selectFrom('order_activity')
      .select('id')
      .where('id', '=', 'a3000000-0000-4000-8000-000000000001')
      .execute();
    expect(written).toHaveLength(0);
  });

  it('refuses tables written centrally only and malformed pushes', async () => {
    const auth = await token(DEVICES.w2);
    const last = (
      await central.context.db
        .selectFrom('sync_clients')
        .select('last_seq')
        .where('client_id', '=', DEVICES.w2.id)
        .executeTakeFirstOrThrow()
    ).last_seq;
    const answer = await push(auth, [
      {
        seq: last + 1,
        name: 'users.update',
        args: {
          changes: [{ t: 'users', op: 'U', k: ['x'], old: {}, new: { password_hash: 'x' } }],
        },
        at: '2026-11-24T10:00:00.000Z',
      },
    ]);
    expect(answer.body).toMatchObject({ rejected: 1 });
    const bad = await push(auth, [{ seq: 'one' }]);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Invalid push: /);
  });

  it('refuses log rows of another facility and deliveries it does not send; drops the document of one queued for the central', async () => {
    const auth = await token(DEVICES.w3); // Savannah only
    const last = async () =>
      (
        await central.context.db
          .selectFrom('sync_clients')
          .select('last_seq')
          .where('client_id', '=', DEVICES.w3.id)
          .executeTakeFirstOrThrow()
      ).last_seq;
    const logRow = {
      t: 'transactions',
      op: 'I',
      k: ['a4000000-0000-4000-8000-000000000001'],
      new: {
        transaction_id: 'a4000000-0000-4000-8000-000000000001',
        action_type: 'X',
        action_type_label: 'X',
        facility_id: '0f000000-0000-4000-8000-000000000001', // Reno
        duration_ms: 0,
        execution_status: 'SUCCESS',
        request_method: 'POST',
        request_url: '/x',
        created_at: '2026-11-24T10:00:00.000Z',
        updated_at: '2026-11-24T10:00:00.000Z',
      },
    };
    const seq = (await last()) + 1;
    const refused = await push(auth, [
      { seq, name: 'X', args: { changes: [logRow] }, at: '2026-11-24T10:00:00.000Z' },
    ]);
    expect(refused.body).toMatchObject({ last_seq: seq, rejected: 1 });

    // A snapshot at Savannah queued for the central: its document is the central's to build.
    const snapshot = {
      t: 'advice_snapshots',
      op: 'I',
      k: ['a5000000-0000-4000-8000-000000000001'],
      new: {
        id: 'a5000000-0000-4000-8000-000000000001',
        brand_id: '0b000000-0000-4000-8000-000000000001',
        facility_id: '0f000000-0000-4000-8000-000000000003',
        user_id: 'u',
        items_json: '[{"sku":"S","available_quantity":1}]',
        item_count: 1,
        created_at: '2026-11-24T10:00:00.000Z',
      },
    };
    const delivery = (id: string, sender: string) => ({
      t: 'advice_deliveries',
      op: 'I',
      k: [id],
      new: {
        id,
        snapshot_id: snapshot.k[0],
        connection_id: '0c000000-0000-4000-8000-000000000005',
        organization_id: '0a000000-0000-4000-8000-000000000002',
        retailer_id: '0e000000-0000-4000-8000-000000000003',
        kind: 'EDI_846',
        status: 'PENDING',
        document: 'FORGED',
        content_type: 'text/plain',
        file_name: 'x.edi',
        interchange_control_number: 1,
        error: null,
        attempts: 0,
        created_at: '2026-11-24T10:00:00.000Z',
        updated_at: '2026-11-24T10:00:00.000Z',
        next_attempt_at: '2026-11-24T10:00:00.000Z',
        auto_retries: 0,
        given_up: 0,
        sender_id: sender,
      },
    });
    const queued = delivery('a6000000-0000-4000-8000-000000000001', 'central');
    const foreign = delivery('a6000000-0000-4000-8000-000000000002', DEVICES.w1.id);
    const answer = await push(auth, [
      {
        seq: seq + 1,
        name: 'ADVICE',
        args: { changes: [snapshot, queued] },
        at: '2026-11-24T10:00:00.000Z',
      },
      {
        seq: seq + 2,
        name: 'ADVICE',
        args: { changes: [foreign] },
        at: '2026-11-24T10:00:00.000Z',
      },
    ]);
    expect(answer.body).toMatchObject({ last_seq: seq + 2, applied: 1, rejected: 1 });
    const stored = await central.context.db
      .selectFrom('advice_deliveries as d')
      .leftJoin('advice_documents as x', 'x.delivery_id', 'd.id')
      .select(['d.id', 'd.document as legacy', 'x.body as document', 'interchange_control_number'])
      .where('snapshot_id', '=', snapshot.k[0]!)
      .execute();
    expect(stored).toHaveLength(1);
    // Built again by the central with its own control numbers (the forged bytes are gone).
    expect(stored[0]!.legacy).toBeNull();
    expect(stored[0]!.document).not.toBe('FORGED');
    expect(stored[0]!.document?.startsWith('ISA*')).toBe(true);

    // A document is recorded by the delivery's sender only: not for one the central sends, nor
    // for one another device sends; the device's own delivery takes the document it pushed.
    const documentOf = (deliveryId: string, body: string) => ({
      t: 'advice_documents',
      op: 'I',
      k: [deliveryId],
      new: { delivery_id: deliveryId, body },
    });
    const own = delivery('a6000000-0000-4000-8000-000000000003', DEVICES.w3.id);
    const documents = await push(auth, [
      {
        seq: seq + 3,
        name: 'ADVICE',
        args: { changes: [documentOf(queued.k[0]!, 'FORGED')] },
        at: '2026-11-24T10:00:00.000Z',
      },
      {
        seq: seq + 4,
        name: 'ADVICE',
        args: { changes: [own, documentOf(own.k[0]!, 'ISA*OWN~')] },
        at: '2026-11-24T10:00:00.000Z',
      },
      {
        seq: seq + 5,
        name: 'ADVICE',
        args: { changes: [documentOf('a6000000-0000-4000-8000-000000000002', 'FORGED')] },
        at: '2026-11-24T10:00:00.000Z',
      },
    ]);
    expect(documents.body).toMatchObject({ last_seq: seq + 5, applied: 1, rejected: 2 });
    const bodies = await central.context.db
      .selectFrom('advice_documents')
      .select(['delivery_id', 'body'])
      .where('delivery_id', 'in', [queued.k[0]!, own.k[0]!])
      .orderBy('delivery_id')
      .execute();
    expect(bodies).toEqual([
      { delivery_id: queued.k[0], body: stored[0]!.document },
      { delivery_id: own.k[0], body: 'ISA*OWN~' },
    ]);
  });

  it('a device disabled in the bundle is refused at once, also with a token it already has', async () => {
    const auth = await token(DEVICES.w2);
    await seedInto(central, { devices: [{ ...DEVICES.w2, disabled: true }] });
    expect((await session(DEVICES.w2)).status).toBe(401);
    const pull = await fetch(`${central.url}/api/sync/v1/pull`, {
      headers: { 'x-sync-protocol': '1', authorization: auth },
    });
    expect(pull.status).toBe(401);
    expect(((await pull.json()) as ApiBody).message).toBe('Invalid or expired device token');
    await seedInto(central, { devices: [DEVICES.w2] });
    expect((await session(DEVICES.w2)).status).toBe(200);
  });
});
