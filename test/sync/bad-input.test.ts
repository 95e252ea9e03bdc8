import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/http/server';
import { bolVersionRow, makePdf } from '../orders/bol-support';
import { type ApiBody, centralForAllTests, DEVICES, signIn } from './helpers/cluster';
import { expectBackToBackBlocks, expectSignInThrottle } from './helpers/limits';
import { deviceLastSeq, signInDevice, syncCall } from './helpers/raw-push';

/** Bad input on the sync routes answers 4xx in the envelope, never 500; limits hold in parallel. */
let central: RunningService;
centralForAllTests((started) => {
  central = started;
});

const SAVANNAH_ORDER = '0d000000-0000-4000-8000-000000000005'; // PS-SUM-2611005
const RENO_ORDER = '0d000000-0000-4000-8000-000000000001'; // PS-SUM-2611001

const call = (path: string, init?: RequestInit & { auth?: string }) =>
  syncCall(central.url, path, init);
const deviceToken = (device: { id: string; secret: string } = DEVICES.w1) =>
  signInDevice(central.url, device);
const post = (path: string, body: unknown, auth?: string) =>
  call(path, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    auth,
  });
const lastSeq = (deviceId: string) => deviceLastSeq(central, deviceId);

function expectInvalid(answer: { status: number; body: ApiBody }, message: string | RegExp) {
  expect(answer.status).toBe(400);
  expect(answer.body.error?.code).toBe('INVALID_REQUEST');
  if (typeof message === 'string') expect(answer.body.message).toBe(message);
  else expect(answer.body.message).toMatch(message);
}

describe('bad input on the sync routes', () => {
  it('session: wrong types, missing fields and malformed JSON are 400', async () => {
    for (const body of [
      {},
      { device_id: 1, device_secret: 'x' },
      { device_id: DEVICES.w1.id, device_secret: ['x'] },
      { device_id: DEVICES.w1.id, device_secret: '' },
    ]) {
      expectInvalid(
        await post('/api/sync/v1/session', body),
        'device_id and device_secret are required',
      );
    }
    expectInvalid(
      await post('/api/sync/v1/session', '{"device_id":'),
      'Malformed JSON in request body',
    );
  });

  it('push: malformed, too many mutations, and not JSON are 400; nothing is applied', async () => {
    const auth = await deviceToken(DEVICES.w2);
    const before = await lastSeq(DEVICES.w2.id);
    const at = '2026-11-24T10:00:00.000Z';
    for (const body of [
      {},
      { mutations: 'x' },
      { mutations: [{ seq: 0, name: 'X', args: { changes: [] }, at }] },
      { mutations: [{ seq: 1, name: 'X', args: { changes: 'x' }, at }] },
      {
        mutations: [
          { seq: 1, name: 'X', args: { changes: [{ t: 'orders', op: 'X', k: ['a'] }] }, at },
        ],
      },
      {
        mutations: [
          { seq: 1, name: 'X', args: { changes: [{ t: 'orders', op: 'U', k: [] }] }, at },
        ],
      },
      {
        mutations: [
          { seq: 1, name: 'X', args: { changes: [{ t: 'orders', op: 'U', k: [{}] }] }, at },
        ],
      },
    ]) {
      expectInvalid(await post('/api/sync/v1/push', body, auth), /^Invalid push: /);
    }
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({
      seq: before + 1 + i,
      name: 'X',
      args: { changes: [] },
      at,
    }));
    expectInvalid(
      await post('/api/sync/v1/push', { mutations: tooMany }, auth),
      'Invalid push: mutations: Too big: expected array to have <=1000 items',
    );
    expectInvalid(await post('/api/sync/v1/push', '[1,', auth), 'Malformed JSON in request body');
    expect(await lastSeq(DEVICES.w2.id)).toBe(before);
  });

  it('push: well-formed changes the central cannot apply are refused as conflicts, not 500', async () => {
    const auth = await deviceToken(DEVICES.w1);
    const at = '2026-11-24T10:00:00.000Z';
    const start = (await lastSeq(DEVICES.w1.id)) + 1;
    const odd = [
      { t: 'no_such_table', op: 'I', k: ['x'], new: { a: 1 } },
      { t: 'order_activity', op: 'I', k: ['x', 'y'], new: {} },
      { t: 'order_activity', op: 'I', k: ['b0000000-0000-4000-8000-000000000001'], new: {} },
      { t: 'order_activity', op: 'I', k: ['b0000000-0000-4000-8000-000000000002'], new: null },
      {
        t: 'order_activity',
        op: 'I',
        k: ['b0000000-0000-4000-8000-000000000003'],
        new: { id: 'b0000000-0000-4000-8000-000000000003', order_id: RENO_ORDER },
      },
      { t: 'orders', op: 'U', k: ['no-such-order'], old: { notes: 'a' }, new: { notes: 'b' } },
    ];
    const answer = await post(
      '/api/sync/v1/push',
      {
        mutations: odd.map((change, i) => ({
          seq: start + i,
          name: 'ODD',
          args: { changes: [change] },
          at,
        })),
      },
      auth,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      last_seq: start + odd.length - 1,
      applied: 0,
      rejected: odd.length,
    });
    const reasons = await central.context.db
      .selectFrom('sync_conflicts')
      .select('reason')
      .where('client_id', '=', DEVICES.w1.id)
      .where('seq', '>=', start)
      .orderBy('seq')
      .execute();
    expect(reasons.map((r) => r.reason)).toEqual([
      'Table no_such_table is written centrally only',
      'Bad key for order_activity',
      'Bad row for order_activity',
      'Bad row for order_activity',
      expect.stringMatching(/^The central service refused it: NOT NULL constraint failed/),
      'This order was deleted on the central service',
    ]);
  });

  it('resolve: apply mine with a value that is not text or a number answers 200, not 500', async () => {
    const auth = await deviceToken(DEVICES.w1);
    const user = await signIn(central);
    const seq = (await lastSeq(DEVICES.w1.id)) + 1;
    const pushed = await post(
      '/api/sync/v1/push',
      {
        mutations: [
          {
            seq,
            name: 'ORDER_UPDATE',
            args: {
              changes: [
                {
                  t: 'orders',
                  op: 'U',
                  k: [RENO_ORDER],
                  old: { ship_to_json: 'was' },
                  new: { ship_to_json: { name: 'an object' } },
                },
              ],
            },
            at: '2026-11-24T10:00:00.000Z',
          },
        ],
      },
      auth,
    );
    expect(pushed.body).toMatchObject({ last_seq: seq, conflicts: 1 });
    const id = (
      await central.context.db
        .selectFrom('sync_conflicts')
        .select('id')
        .where('client_id', '=', DEVICES.w1.id)
        .where('seq', '=', seq)
        .executeTakeFirstOrThrow()
    ).id;
    const resolved = await post(
      `/api/sync/v1/conflicts/${id}/resolve`,
      { action: 'apply_mine' },
      user,
    );
    expect(resolved.status).toBe(200);
    const order = await central.context.db
      .selectFrom('orders')
      .select('ship_to_json')
      .where('id', '=', RENO_ORDER)
      .executeTakeFirstOrThrow();
    expect(order.ship_to_json).toBe('{"name":"an object"}');
  });

  it('pull: a limit out of range or not a number is 400; an unreadable cursor starts over', async () => {
    const auth = await deviceToken();
    for (const limit of ['0', '-1', '50001', 'abc', '1.5']) {
      expectInvalid(
        await call(`/api/sync/v1/pull?limit=${limit}`, { auth }),
        /^Invalid pull: limit: /,
      );
    }
    const page = await call(`/api/sync/v1/pull?limit=1&cursor=not-a-cursor`, { auth });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ reset: true });
  });

  it('files: a bad digest, bad base64, a mismatch, a missing body field and an oversize body are 4xx', async () => {
    const auth = await deviceToken();
    const bytes = Buffer.from('%PDF-1.4 bad input test');
    const digest = createHash('sha256').update(bytes).digest('hex');
    const put = (name: string, body: object) =>
      call(`/api/sync/v1/files/${name}`, {
        method: 'PUT',
        body: JSON.stringify({ order_id: RENO_ORDER, ...body }),
        auth,
      });
    expectInvalid(
      await put('not-a-digest', { content_base64: bytes.toString('base64') }),
      'The file name must be a SHA-256 digest',
    );
    expectInvalid(
      await put(digest.toUpperCase(), { content_base64: bytes.toString('base64') }),
      'The file name must be a SHA-256 digest',
    );
    expectInvalid(
      await put(digest, { content_base64: '@@@@' }),
      'content_base64 is not valid base64',
    );
    expectInvalid(
      await put(digest, { content_base64: 'QUJD=' }),
      'content_base64 is not valid base64',
    );
    expectInvalid(
      await put(digest, { content_base64: Buffer.from('other').toString('base64') }),
      'The content does not match its SHA-256',
    );
    expectInvalid(await put(digest, {}), 'order_id and content_base64 are required');
    expectInvalid(
      await put(digest, { content_base64: 1 }),
      'order_id and content_base64 are required',
    );
    expectInvalid(
      await call(`/api/sync/v1/files/${'0'.repeat(63)}g`, { auth }),
      'The file name must be a SHA-256 digest',
    );
    const huge = await call(`/api/sync/v1/files/${digest}`, {
      method: 'PUT',
      body: JSON.stringify({ content_base64: 'A'.repeat(33 * 1024 * 1024) }),
      auth,
    });
    expect(huge.status).toBe(413);
    expect(huge.body.message).toMatch(/^Request body is too large/);
  });

  it('sscc-blocks: a malformed prefix is 400', async () => {
    const auth = await deviceToken();
    for (const body of [
      {},
      { company_prefix: '123' },
      { company_prefix: 614141 },
      { company_prefix: '0614141', x: 1 },
    ]) {
      expectInvalid(
        await post('/api/sync/v1/sscc-blocks', body, auth),
        'company_prefix must be 7 to 10 digits',
      );
    }
  });

  it('conflicts: page 0, page_size 101 or an unknown status is 400; a bad resolve body is 400', async () => {
    const user = await signIn(central);
    for (const query of ['page=0', 'page_size=101', 'page_size=0', 'status=maybe', 'page=x']) {
      expectInvalid(
        await call(`/api/sync/v1/conflicts?${query}`, { auth: user }),
        'Invalid query parameters',
      );
    }
    const listed = await call('/api/sync/v1/conflicts?page_size=100', { auth: user });
    expect(listed.status).toBe(200);
    for (const body of [{}, { action: 'both' }, { action: 1 }]) {
      expectInvalid(
        await post('/api/sync/v1/conflicts/any-id/resolve', body, user),
        'action must be keep_central or apply_mine',
      );
    }
    const unknown = await post(
      '/api/sync/v1/conflicts/any-id/resolve',
      { action: 'keep_central' },
      user,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      message: 'Conflict not found',
      error: { code: 'NOT_FOUND' },
    });
  });
});

describe('sync permission rules and limits', () => {
  it('sscc-blocks: a prefix of a brand working only at another facility answers 404, as an unknown one', async () => {
    const w1 = await deviceToken(DEVICES.w1); // Reno; Lumen Home (0614143) works only at Savannah
    for (const prefix of ['0614143', '9999999']) {
      const answer = await post('/api/sync/v1/sscc-blocks', { company_prefix: prefix }, w1);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({
        message: 'No brand of this device has that GS1 company prefix',
        error: { code: 'NOT_FOUND' },
      });
    }
    const w3 = await deviceToken(DEVICES.w3);
    const leased = await post('/api/sync/v1/sscc-blocks', { company_prefix: '0614143' }, w3);
    expect(leased.status).toBe(200);
    expect(leased.body).toMatchObject({ company_prefix: '0614143', device_id: DEVICES.w3.id });
  });

  it('sscc-blocks: 50 parallel leases of one prefix give 50 blocks that do not overlap', async () => {
    const auth = await deviceToken(DEVICES.w2);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        post('/api/sync/v1/sscc-blocks', { company_prefix: '0614142' }, auth),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expectBackToBackBlocks(answers);
  });

  it('files: a BOL of an order outside the device facilities answers 404, as an unknown digest', async () => {
    const bytes = await makePdf('savannah bol');
    const digest = createHash('sha256').update(bytes).digest('hex');
    const w3 = await deviceToken(DEVICES.w3);
    const stored = await call(`/api/sync/v1/files/${digest}`, {
      method: 'PUT',
      body: JSON.stringify({ order_id: SAVANNAH_ORDER, content_base64: bytes.toString('base64') }),
      auth: w3,
    });
    expect(stored.status).toBe(200);
    await central.context.db
      .insertInto('order_bol_versions')
      .values(
        bolVersionRow({
          id: 'b1000000-0000-4000-8000-000000000001',
          order_id: SAVANNAH_ORDER,
          version: 1,
          sha256: digest,
          size: bytes.length,
        }),
      )
      .execute();
    const w1 = await deviceToken(DEVICES.w1); // Reno only
    for (const name of [digest, 'f'.repeat(64)]) {
      const answer = await call(`/api/sync/v1/files/${name}`, { auth: w1 });
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({
        message: 'File not found',
        error: { code: 'NOT_FOUND' },
      });
    }
    const own = await call(`/api/sync/v1/files/${digest}`, { auth: w3 });
    expect(own).toMatchObject({ status: 200, body: { content_base64: bytes.toString('base64') } });
  });

  it('session: 60 parallel wrong secrets for one device admit 5; the right secret is then locked out too', async () => {
    await expectSignInThrottle(central, {
      id: 'd1000000-0000-4000-8000-0000000000aa',
      name: 'Savannah throttle',
      secret: 'throttle-secret-throttle',
    });
  });
});
