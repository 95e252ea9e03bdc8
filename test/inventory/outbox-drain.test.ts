/**
 * The outbox drains by itself (issue 6, Robustness): failed deliveries a retry may fix and
 * PENDING rows a crash left are sent again with the very same bytes, with backoff up to a limit,
 * never after a newer snapshot of the same scope, and never twice at once (drain passes and
 * manual retries race for the same delivery). The state shows in the history API.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startOutboxDrainer,
  type OutboxDrainer,
} from '../../src/server/inventory/transmission/outbox-drainer';
import type { ServiceContext } from '../../src/server/core/context';
import { writeOutbox } from '../../src/server/inventory/advise';
import {
  DRAIN_BATCH_SIZE,
  redeliverDue,
  DISABLED_MESSAGE,
  SUPERSEDED_MESSAGE,
} from '../../src/server/inventory/redeliver';
import { resolveTargets } from '../../src/server/inventory/targets';
import { validateAdvice } from '../../src/server/inventory/validate';
import { startService } from '../../src/server/http/server';
import { snapshotPageSchema } from '../../src/shared/inventory';
import { manualClock } from '../helpers/clock';
import { baseBundle, id } from '../helpers/fixtures';
import {
  hang,
  ok,
  respond,
  startReceiver,
  type Receiver,
  type ReceiverHandler,
} from '../helpers/receivers';
import { describeEngines } from '../helpers/engines';
import { createTestService, type TestService } from '../helpers/service';
import {
  facilityUrl,
  FAST_POLICY,
  get,
  http,
  isa13Of,
  post,
  setTransport,
  tmpDir,
  type Bundle,
} from './support';

const [F1, F2, F3] = [id('f', 1), id('f', 2), id('f', 3)];
const [B1, B2] = [id('b', 1), id('b', 2)];
const ADMIN = 'admin@a.test';

/** Polls until `check` holds (the loop runs by itself; no timing is asserted). */
async function until(check: () => Promise<boolean> | boolean, what: string) {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** admin@a.test may send brand 1 at facilities 1, 2 (Reno) and 3, and brand 2 at facility 1. */
function drainBundle(partnerUrl: string): Bundle {
  const bundle = baseBundle();
  for (const n of [1, 2, 3]) setTransport(bundle, id('c', n), http(partnerUrl));
  bundle.brand_facilities.push({ brand_id: B1, facility_id: F2 });
  const admin = bundle.users[0]!;
  admin.facility_ids.push(F3);
  admin.admin.push(
    { brand_id: B1, facility_id: F2 },
    { brand_id: B1, facility_id: F3 },
    { brand_id: B2, facility_id: F1 },
  );
  bundle.users = [admin];
  return bundle;
}

const deliveryRow = (ctx: ServiceContext, deliveryId: string) =>
  ctx.db
    .selectFrom('advice_deliveries')
    .select(['status', 'error', 'attempts', 'auto_retries', 'next_attempt_at', 'given_up'])
    .where('id', '=', deliveryId)
    .executeTakeFirstOrThrow();

describeEngines('background re-delivery', (engine) => {
  let partner: Receiver;
  let svc: TestService;
  let bearer: string;
  let time: ReturnType<typeof manualClock>;
  let drainer: OutboxDrainer | null = null;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'partner');
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    await drainer?.stop();
    drainer = null;
    await svc?.close();
  });

  async function fresh(start = '2030-07-01T09:00:00Z') {
    partner.clear();
    partner.handle(ok);
    time = manualClock(start);
    svc = await createTestService({
      engine,
      seed: drainBundle(partner.url),
      clock: time.clock,
      deliveryPolicy: FAST_POLICY,
    });
    bearer = await svc.login(ADMIN);
  }

  const send = async (brandId: string, facilityId: string, sku: string, status: number) => {
    const response = await post(svc, bearer, facilityUrl(brandId, facilityId), {
      items: [{ sku, available_quantity: 5 }],
    });
    expect(response.statusCode, response.body).toBe(status);
    return response.json().data.results[0].delivery_id as string;
  };
  const pass = () => redeliverDue(svc.ctx, DRAIN_BATCH_SIZE);
  const historyDelivery = async (deliveryId: string) => {
    bearer = await svc.login(ADMIN); // the hand-moved clock may have outlived the last token
    const response = await get(svc, bearer, '/api/v1/inventory/snapshots?page_size=100');
    expect(response.statusCode, response.body).toBe(200);
    const page = snapshotPageSchema.parse(response.json().data);
    return page.items.flatMap((item) => item.deliveries).find((d) => d.delivery_id === deliveryId)!;
  };
  const keysReceived = () => partner.received.map((r) => r.headers['idempotency-key']);

  it('a partner that is down for a while gets the interchange once it is back, unchanged, with no clerk action', async () => {
    await fresh();
    partner.handle(respond(503, 'down for maintenance'));
    const deliveryId = await send(B1, F1, 'DOWN-1', 502);
    const original = partner.received[0]!;
    const firstTry = partner.received.length;

    // The history says when the service tries again by itself.
    expect(await historyDelivery(deliveryId)).toMatchObject({
      status: 'FAILURE',
      attempts: FAST_POLICY.maxAttempts,
      next_attempt_at: time.iso(30_000),
      given_up: false,
    });

    drainer = startOutboxDrainer(pass, { firstPassMs: 0, intervalMs: 10 });
    await drainer.drainNow();
    expect(partner.received).toHaveLength(firstTry); // not due yet

    // Still down 30 s later: the loop tries again by itself and plans a longer wait.
    time.advance(30_000);
    await until(
      async () => (await deliveryRow(svc.ctx, deliveryId)).auto_retries === 1,
      'the first background re-delivery',
    );
    expect(await historyDelivery(deliveryId)).toMatchObject({
      status: 'FAILURE',
      next_attempt_at: time.iso(60_000),
      given_up: false,
    });

    // Back up: the next due pass delivers it.
    partner.handle(ok);
    time.advance(60_000);
    await until(
      async () => (await deliveryRow(svc.ctx, deliveryId)).status === 'SUCCESS',
      'the delivery to succeed',
    );
    const delivered = partner.received.at(-1)!;
    expect(delivered.body).toBe(original.body);
    expect(isa13Of(delivered.body)).toBe('000000001');
    expect(delivered.headers['idempotency-key']).toBe(original.headers['idempotency-key']);
    expect(delivered.headers['content-type']).toBe('application/edi-x12');
    expect(await historyDelivery(deliveryId)).toMatchObject({
      status: 'SUCCESS',
      error: null,
      next_attempt_at: null,
      given_up: false,
    });

    // Nothing more is sent, however long the loop runs.
    const total = partner.received.length;
    time.advance(24 * 3_600_000);
    await drainer.drainNow();
    await drainer.drainNow();
    expect(partner.received).toHaveLength(total);
  });

  it('backs off, then gives up after the limit; a clerk can still retry by hand', async () => {
    await fresh();
    svc.ctx.redeliveryPolicy = { baseDelayMs: 1_000, maxDelayMs: 4_000, maxAutoRetries: 3 };
    partner.handle(respond(502, 'bad gateway'));
    const deliveryId = await send(B1, F1, 'LIMIT-1', 502);

    const waits: (number | null)[] = [];
    for (let n = 0; n < 4; n++) {
      const row = await deliveryRow(svc.ctx, deliveryId);
      waits.push(
        row.next_attempt_at ? Date.parse(row.next_attempt_at) - time.clock.now().getTime() : null,
      );
      if (!row.next_attempt_at) break;
      time.advance(Date.parse(row.next_attempt_at) - time.clock.now().getTime());
      expect(await pass()).toBe(1);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, null]);
    expect(await deliveryRow(svc.ctx, deliveryId)).toMatchObject({
      status: 'FAILURE',
      auto_retries: 3,
      given_up: 1,
      attempts: 4 * FAST_POLICY.maxAttempts,
    });
    expect(await historyDelivery(deliveryId)).toMatchObject({
      next_attempt_at: null,
      given_up: true,
      error: '502: bad gateway',
    });

    const sent = partner.received.length;
    time.advance(10 * 3_600_000);
    expect(await pass()).toBe(0);
    expect(partner.received).toHaveLength(sent);

    partner.handle(ok);
    bearer = await svc.login(ADMIN);
    const retry = await post(svc, bearer, `/api/v1/inventory/deliveries/${deliveryId}/retry`, {});
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().data.success).toBe(true);
  });

  it('a failure a retry cannot fix (4xx) is left to the clerk', async () => {
    await fresh();
    partner.handle(respond(422, 'unknown vendor'));
    const deliveryId = await send(B1, F1, 'BAD-1', 502);
    expect(await historyDelivery(deliveryId)).toMatchObject({
      status: 'FAILURE',
      next_attempt_at: null,
      given_up: false,
    });
    time.advance(3_600_000);
    expect(await pass()).toBe(0);
    expect(partner.received).toHaveLength(1);
  });

  it('sends nothing to a connection disabled since the failure', async () => {
    await fresh();
    partner.handle(respond(503, 'down'));
    const deliveryId = await send(B1, F1, 'OFF-1', 502);
    await svc.ctx.db
      .updateTable('connections')
      .set({ enabled: 0 })
      .where('id', '=', id('c', 1))
      .execute();
    partner.clear();
    partner.handle(ok);
    time.advance(3_600_000);
    expect(await pass()).toBe(0);
    expect(partner.received).toHaveLength(0);
    expect(await historyDelivery(deliveryId)).toMatchObject({
      error: DISABLED_MESSAGE,
      next_attempt_at: null,
      given_up: true,
    });
  });

  it('never resends an older snapshot once a newer one of the same scope was accepted', async () => {
    await fresh();
    partner.handle(respond(503, 'down'));
    const older = await send(B1, F1, 'OLD-1', 502);
    time.advance(1_000);
    partner.handle(ok);
    await send(B1, F1, 'NEW-1', 200);
    partner.clear();

    time.advance(3_600_000);
    expect(await pass()).toBe(0);
    expect(partner.received).toHaveLength(0);
    expect(await historyDelivery(older)).toMatchObject({
      status: 'FAILURE',
      error: SUPERSEDED_MESSAGE,
      next_attempt_at: null,
      given_up: true,
    });
  });

  it('of two failed snapshots of one scope, only the newer is sent again', async () => {
    await fresh();
    partner.handle(respond(503, 'down'));
    const older = await send(B1, F1, 'OLD-2', 502);
    time.advance(1_000);
    const newer = await send(B1, F1, 'NEW-2', 502);
    partner.clear();
    partner.handle(ok);

    time.advance(3_600_000);
    expect(await pass()).toBe(1);
    expect(keysReceived()).toEqual([newer]);
    expect(await deliveryRow(svc.ctx, newer)).toMatchObject({ status: 'SUCCESS' });
    expect(await deliveryRow(svc.ctx, older)).toMatchObject({ given_up: 1, next_attempt_at: null });
  });

  it("another facility's newer snapshot on the same connection does not stop a re-delivery", async () => {
    await fresh();
    partner.handle(respond(503, 'down'));
    const columbus = await send(B1, F1, 'COL-1', 502);
    time.advance(1_000);
    partner.handle(ok);
    await send(B1, F2, 'RNO-1', 200); // Reno, same connection c1
    partner.clear();

    time.advance(3_600_000);
    expect(await pass()).toBe(1);
    expect(keysReceived()).toEqual([columbus]);
    expect(await deliveryRow(svc.ctx, columbus)).toMatchObject({ status: 'SUCCESS' });
  });

  it('a PENDING row left by a crash is sent by the next pass, with the same document', async () => {
    await fresh();
    // Commit the outbox like a send does, then "crash": nothing is sent, and a new process
    // starts with nothing in flight.
    const user = { id: 'crashed', email: ADMIN, brandId: null };
    const account = await svc.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', ADMIN)
      .executeTakeFirstOrThrow();
    user.id = account.id;
    const targets = await resolveTargets(svc.ctx, user, {
      kind: 'facility',
      brandId: B1,
      facilityId: F1,
    });
    const items = validateAdvice(svc.ctx, targets, {
      items: [{ sku: 'CRASH-1', available_quantity: 3 }],
    });
    const prepared = await writeOutbox(svc.ctx, user, targets, items);
    const [row] = prepared.rows;
    expect(row).toMatchObject({ status: 'PENDING' });

    // While this process still holds it (sending), a pass leaves it alone.
    expect(await pass()).toBe(0);
    svc.ctx.deliveriesInFlight.clear(); // the restarted process

    expect(await pass()).toBe(1);
    expect(partner.received).toHaveLength(1);
    expect(partner.received[0]!.body).toBe(row!.document);
    expect(await deliveryRow(svc.ctx, row!.id)).toMatchObject({
      status: 'SUCCESS',
      next_attempt_at: null,
    });
  });

  it('50 parallel drain passes and manual retries never send one delivery twice', async () => {
    await fresh();
    partner.handle(respond(503, 'down'));
    // Three deliveries that no newer snapshot replaces: three connections / scopes.
    const deliveries = [
      await send(B1, F1, 'RACE-1', 502),
      await send(B2, F1, 'RACE-2', 502),
      await send(B1, F3, 'RACE-3', 502),
    ];
    partner.clear();
    const attemptLog = () =>
      svc.ctx.db.selectFrom('transactions').select(['transaction_id', 'request_payload']).execute();
    const logBefore = new Set((await attemptLog()).map((row) => row.transaction_id));
    // A partner that takes a moment, so passes and retries overlap while one is on the wire.
    const slowOk: ReceiverHandler = (res: ServerResponse) => {
      setTimeout(() => ok(res, undefined as never, 0), 20);
    };
    partner.handle(slowOk);
    // Room for the load of 110 racing callers: an attempt timing out would retry by design.
    svc.ctx.deliveryPolicy = { ...FAST_POLICY, attemptTimeoutMs: 5_000, totalBudgetMs: 10_000 };
    time.advance(3_600_000);
    bearer = await svc.login(ADMIN);

    const passes = Array.from({ length: 50 }, () => pass());
    const retries = deliveries.flatMap((deliveryId) =>
      Array.from({ length: 20 }, () =>
        post(svc, bearer, `/api/v1/inventory/deliveries/${deliveryId}/retry`, {}),
      ),
    );
    const [passCounts, answers] = await Promise.all([Promise.all(passes), Promise.all(retries)]);

    // Each delivery was run exactly once (one first attempt in the log), whoever ran it.
    const runs = (await attemptLog())
      .filter((row) => !logBefore.has(row.transaction_id))
      .map((row) => JSON.parse(row.request_payload!) as { delivery_id: string; attempt: number })
      .filter((payload) => payload.attempt === 1);
    expect(runs.map((run) => run.delivery_id).sort()).toEqual([...deliveries].sort());
    expect([...new Set(keysReceived())].sort()).toEqual([...deliveries].sort());
    const retried = answers.filter((a) => a.statusCode === 200).length;
    expect(passCounts.reduce((a, b) => a + b, 0) + retried).toBe(deliveries.length);
    for (const answer of answers) {
      expect([200, 400], answer.body).toContain(answer.statusCode);
      if (answer.statusCode === 400) {
        expect(['This delivery is being sent', 'This delivery has already succeeded']).toContain(
          answer.json().message,
        );
      }
    }
    for (const deliveryId of deliveries) {
      expect(await deliveryRow(svc.ctx, deliveryId)).toMatchObject({
        status: 'SUCCESS',
        next_attempt_at: null,
      });
    }
    expect(svc.ctx.deliveriesInFlight.size).toBe(0);
  });
  it('50 parallel passes against a partner still down count one background re-delivery each', async () => {
    await fresh();
    partner.handle(respond(503, 'down'));
    const deliveries = [
      await send(B1, F1, 'COUNT-1', 502),
      await send(B2, F1, 'COUNT-2', 502),
      await send(B1, F3, 'COUNT-3', 502),
    ];
    time.advance(3_600_000);
    const sent = await Promise.all(Array.from({ length: 50 }, () => pass()));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(deliveries.length);
    for (const deliveryId of deliveries) {
      expect(await deliveryRow(svc.ctx, deliveryId)).toMatchObject({
        status: 'FAILURE',
        auto_retries: 1,
        next_attempt_at: time.iso(60_000),
        given_up: 0,
      });
    }
  });
});

describe('the service runs the drainer', () => {
  let partner: Receiver;
  let data: ReturnType<typeof tmpDir>;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'svc-partner');
    data = tmpDir('drain-service');
  });
  afterAll(async () => {
    await partner?.close();
    data?.remove();
  });

  it('sends what an earlier run left PENDING after a restart, and closes without waiting on a stuck partner', async () => {
    const bundle = drainBundle(partner.url);
    const seedPath = join(data.path, 'seed.json');
    writeFileSync(seedPath, JSON.stringify(bundle));
    const options = {
      host: '127.0.0.1',
      port: 0,
      dataDir: join(data.path, 'data'),
      seed: null,
      uiDir: null,
    };

    // 1. An earlier run (drainer off) commits the outbox but never sends: it "crashed".
    const first = await startService({ ...options, seed: seedPath, outboxDrain: false });
    expect(first.drainer).toBeNull();
    const account = await first.context.db
      .selectFrom('users')
      .select('id')
      .executeTakeFirstOrThrow();
    const user = { id: account.id, email: ADMIN, brandId: null };
    const targets = await resolveTargets(first.context, user, {
      kind: 'facility',
      brandId: B1,
      facilityId: F1,
    });
    const items = validateAdvice(first.context, targets, {
      items: [{ sku: 'RESTART-1', available_quantity: 2 }],
    });
    const prepared = await writeOutbox(first.context, user, targets, items);
    await first.close();
    expect(partner.received).toHaveLength(0);

    // 2. The next run sends it by itself.
    const second = await startService(options, { deliveryPolicy: FAST_POLICY });
    try {
      expect(second.drainer).not.toBeNull();
      await partner.waitFor(1, 10_000);
      expect(partner.received[0]!.body).toBe(prepared.rows[0]!.document);
      await until(
        async () => (await deliveryRow(second.context, prepared.rows[0]!.id)).status === 'SUCCESS',
        'the restarted service to record the delivery',
      );
    } finally {
      await second.close();
    }

    // 3. A pass stuck on a partner that never answers does not hold the close.
    partner.handle(hang);
    const third = await startService(
      { ...options, outboxDrain: { firstPassMs: 60_000, stopGraceMs: 20 } },
      { deliveryPolicy: { ...FAST_POLICY, attemptTimeoutMs: 1_500, totalBudgetMs: 1_500 } },
    );
    const stuck = await writeOutbox(third.context, user, targets, items);
    third.context.deliveriesInFlight.clear();
    const drainPass = third.drainer!.drainNow();
    await partner.waitFor(2, 10_000);
    await third.close(); // resolves although the pass still waits on the partner
    expect(stuck.rows[0]!.status).toBe('PENDING');
    await drainPass;
  });
});
