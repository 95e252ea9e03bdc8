import { sql } from 'kysely';
/**
 * The advice outbox with two central processes on one PostgreSQL database (issue 17, item 3):
 * both drain the same committed deliveries while clerks retry them through both, and the partner
 * receives every delivery exactly once.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuthUser } from '../../src/server/core/context';
import { writeOutbox } from '../../src/server/inventory/advise';
import { redeliverDue } from '../../src/server/inventory/redeliver';
import { FRESH_DELIVERY_MS } from '../../src/server/inventory/transmission/delivery-lease';
import { resolveTargets } from '../../src/server/inventory/targets';
import { validateAdvice } from '../../src/server/inventory/validate';
import { baseBundle, id } from '../helpers/fixtures';
import { ok, startReceiver, type Receiver, type ReceiverHandler } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { FAST_POLICY, http, post, setTransport } from '../inventory/support';

const postgres = inject('postgres');
const [F1, F3] = [id('f', 1), id('f', 3)];
const [B1, B2] = [id('b', 1), id('b', 2)];
const ADMIN = 'admin@a.test';
/** One try per send with time to spare: a repeat at the partner can only be a second send. */
const ONE_TRY = { ...FAST_POLICY, attemptTimeoutMs: 10_000, totalBudgetMs: 10_000, maxAttempts: 1 };

/** admin@a.test may send brand 1 at facilities 1 and 3, and brand 2 at facility 1. */
function bundle(partnerUrl: string) {
  const base = baseBundle();
  for (const n of [1, 2, 3]) setTransport(base, id('c', n), http(partnerUrl));
  const admin = base.users[0]!;
  admin.facility_ids.push(F3);
  admin.admin.push({ brand_id: B1, facility_id: F3 }, { brand_id: B2, facility_id: F1 });
  base.users = [admin];
  return base;
}

describe.skipIf(!postgres)('the advice outbox drained by two central processes', () => {
  /** Both processes' clock: real time, moved on when a test needs deliveries to be old. */
  let shiftMs = 0;
  const clock = { now: () => new Date(Date.now() + shiftMs) };
  let partner: Receiver;
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer');
    a = await createTestService({
      engine: 'postgres',
      seed: bundle(partner.url),
      deliveryPolicy: ONE_TRY,
      clock,
    });
    b = await createTestService({ postgresUrl: a.postgresUrl, deliveryPolicy: ONE_TRY, clock });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await partner?.close();
  });

  /** Commits an advice's outbox through A, as a send does before it sends: nothing sent yet. */
  async function committedDelivery(brandId: string, facilityId: string, sku: string) {
    const account = await a.ctx.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', '=', ADMIN)
      .executeTakeFirstOrThrow();
    const user: AuthUser = { id: account.id, email: account.email, brandId: null };
    const targets = await resolveTargets(a.ctx, user, { kind: 'facility', brandId, facilityId });
    const items = validateAdvice(a.ctx, targets, { items: [{ sku, available_quantity: 3 }] });
    const prepared = await writeOutbox(a.ctx, user, targets, items);
    expect(prepared.rows).toHaveLength(1);
    // writeOutbox claims it in A for the send that follows; here A "crashes" before sending,
    // and both processes find it due.
    a.ctx.deliveriesInFlight.delete(prepared.rows[0]!.id);
    return prepared.rows[0]!.id;
  }

  it('passes of both processes and retries through both send each delivery once', async () => {
    const deliveries = [
      await committedDelivery(B1, F1, 'TWO-1'),
      await committedDelivery(B2, F1, 'TWO-2'),
      await committedDelivery(B1, F3, 'TWO-3'),
    ];
    // Held for the request that queued them (in its transaction): no drainer takes them.
    expect(await redeliverDue(b.ctx, 32)).toBe(0);
    expect(partner.received).toHaveLength(0);
    // FRESH_DELIVERY_MS later they are a crash's leftovers: the holds have run out.
    shiftMs = FRESH_DELIVERY_MS + 1_000;
    await sql`UPDATE delivery_claims SET expires_at = clock_timestamp() - interval '1 second'`.execute(
      a.ctx.db,
    );
    // A partner that takes a moment, so passes and retries overlap while one is on the wire.
    const slowOk: ReceiverHandler = (res: ServerResponse) => {
      setTimeout(() => ok(res, undefined as never, 0), 20);
    };
    partner.handle(slowOk);
    const bearer = await a.login(ADMIN);
    const passes = Array.from({ length: 20 }, (_, i) => redeliverDue(i % 2 ? b.ctx : a.ctx, 32));
    const retries = deliveries.flatMap((deliveryId) =>
      Array.from({ length: 6 }, (_, i) =>
        post(i % 2 ? b : a, bearer, `/api/v1/inventory/deliveries/${deliveryId}/retry`, {}),
      ),
    );
    const [, answers] = await Promise.all([Promise.all(passes), Promise.all(retries)]);

    const keys = partner.received.map((r) => r.headers['idempotency-key']);
    expect([...keys].sort()).toEqual([...deliveries].sort());
    // A retry that found the delivery sending, in its own process or another, says so.
    for (const answer of answers) {
      expect([200, 400], answer.body).toContain(answer.statusCode);
      if (answer.statusCode === 200) expect(answer.json().data.success).toBe(true);
      else {
        expect(['This delivery is being sent', 'This delivery has already succeeded']).toContain(
          answer.json().message,
        );
      }
    }
    const rows = await b.ctx.db
      .selectFrom('advice_deliveries')
      .select(['status', 'attempts'])
      .where('id', 'in', deliveries)
      .execute();
    expect(rows.every((row) => row.status === 'SUCCESS' && row.attempts === 1)).toBe(true);
  });
});
