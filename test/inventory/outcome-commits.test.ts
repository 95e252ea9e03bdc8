/**
 * Outcomes are written in groups (src/server/inventory/transmission/outcome-batch.ts): the sends
 * of one call that settle together cost one commit, and a slow partner does not keep the others'
 * outcomes from becoming durable (their claims are released long before it answers).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runDeliveries, type DeliveryJob } from '../../src/server/inventory/transmission/engine';
import { OutcomeBatch } from '../../src/server/inventory/transmission/outcome-batch';
import { createTestService, type TestService } from '../helpers/service';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { FAST_POLICY } from './support';

let svc: TestService;
let fast: Receiver;
let slow: Receiver;
let commits = 0;
let slowAnswered = false;
/** How long the slow partner takes to answer. */
const SLOW_MS = 3_000;

beforeAll(async () => {
  fast = await startReceiver(ok, 'fast');
  slow = await startReceiver((res) => {
    setTimeout(() => {
      slowAnswered = true;
      ok(res, undefined as never, 0);
    }, SLOW_MS);
  }, 'slow');
  svc = await createTestService({
    deliveryPolicy: { ...FAST_POLICY, attemptTimeoutMs: 5_000, totalBudgetMs: 5_000 },
  });
  svc.database.transactionHooks.beforeCommit = () => {
    commits += 1;
  };
});

afterAll(async () => {
  await svc?.close();
  await fast?.close();
  await slow?.close();
});

beforeEach(() => {
  commits = 0;
});

/** A job for a delivery with no outbox row: its attempts are logged, no row is updated. */
function job(url: string): DeliveryJob {
  const deliveryId = randomUUID();
  return {
    deliveryId,
    transport: { type: 'http', url },
    document: {
      body: '{"items":[]}',
      contentType: 'application/json',
      fileName: 'feed.json',
      idempotencyKey: deliveryId,
    },
    log: {
      deliveryId,
      snapshotId: randomUUID(),
      brandId: 'brand',
      facilityId: null,
      retailerId: null,
      documentBytes: 12,
    },
  };
}

const attemptRows = (ids: string[]) =>
  svc.ctx.db
    .selectFrom('transactions')
    .select('request_payload')
    .where('correlation_id', 'in', ids)
    .execute();

describe('delivery outcomes', () => {
  it('the outcomes of sends that settle together are written in one commit', async () => {
    // A linger far longer than any send here, so a loaded machine cannot split the batch.
    const batch = new OutcomeBatch(svc.ctx, 60_000);
    const jobs = Array.from({ length: 8 }, () => job(fast.url));
    const durable = jobs.map(async (j, n) => {
      batch.started();
      await new Promise((resolve) => setTimeout(resolve, n * 5)); // settle one after another
      return batch.record(j, {
        success: true,
        error: null,
        retryable: false,
        attempts: [
          {
            attempt: 1,
            requestUrl: fast.url,
            startedAt: new Date(),
            durationMs: 1,
            status: 'SUCCESS',
            responseStatus: 200,
            responseBody: 'ok',
            error: null,
          },
        ],
      });
    });
    await Promise.all(durable);

    expect(commits).toBe(1);
    expect(await attemptRows(jobs.map((j) => j.log.snapshotId))).toHaveLength(8);
  });

  it('an advice to eight partners logs every attempt and releases every claim', async () => {
    const jobs = Array.from({ length: 8 }, () => job(fast.url));
    const outcomes = await runDeliveries(svc.ctx, jobs);

    expect([...outcomes.values()].every((o) => o.success)).toBe(true);
    expect(commits).toBeGreaterThanOrEqual(1);
    expect(await attemptRows(jobs.map((j) => j.log.snapshotId))).toHaveLength(8);
    expect(svc.ctx.deliveriesInFlight.size).toBe(0);
  });

  it('a slow partner does not hold back the outcomes of the others', async () => {
    const quick = Array.from({ length: 3 }, () => job(fast.url));
    const late = job(slow.url);
    const run = runDeliveries(svc.ctx, [...quick, late]);

    // The quick ones become durable and are released while the slow partner still holds its
    // answer (SLOW_MS is far beyond the linger, so this holds on a loaded machine too).
    const deadline = Date.now() + SLOW_MS - 500;
    while (svc.ctx.deliveriesInFlight.size > 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(slowAnswered).toBe(false);
    expect([...svc.ctx.deliveriesInFlight]).toEqual([late.deliveryId]);
    expect(await attemptRows(quick.map((j) => j.log.snapshotId))).toHaveLength(3);
    expect(commits).toBe(1);

    const outcomes = await run;
    expect(slowAnswered).toBe(true);
    expect(outcomes.get(late.deliveryId)).toEqual({ success: true, error: null });
    expect(commits).toBe(2);
    expect(svc.ctx.deliveriesInFlight.size).toBe(0);
  });
});
