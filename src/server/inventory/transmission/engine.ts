import {
  completeDelivery,
  deliveryStates,
  insertAttempts,
  type AttemptContext,
  type DeliveryToSend,
} from '../queries';
import type { ServiceContext } from '../../core/context';
import { mapBounded } from './bounded';
import { defaultRedeliveryPolicy, planAfterOutcome } from './redelivery';
import { deliver } from './transports';
import type { DeliveryOutcome, OutboundDocument, TransportConfig } from './types';

/** A delivery whose outbox row is already committed (status PENDING). */
export interface DeliveryJob {
  deliveryId: string;
  transport: TransportConfig;
  document: OutboundDocument;
  log: AttemptContext;
  /** Sent by the background drainer (counts towards its backoff and limit). */
  automatic?: boolean;
}

/**
 * Marks a delivery as being sent by this process; false when it already is. Synchronous, so a
 * check and the claim cannot be split by another request or a drain tick. runDeliveries releases
 * the claim once the outcome is durable.
 */
export function claimDelivery(ctx: ServiceContext, deliveryId: string): boolean {
  if (ctx.deliveriesInFlight.has(deliveryId)) return false;
  ctx.deliveriesInFlight.add(deliveryId);
  return true;
}

export function releaseDelivery(ctx: ServiceContext, deliveryId: string): void {
  ctx.deliveriesInFlight.delete(deliveryId);
}

/** The job that sends a stored delivery again: the very same document and idempotency key. */
export function resendJob(
  row: DeliveryToSend & { document: string; content_type: string; file_name: string },
  transport: TransportConfig,
  automatic: boolean,
): DeliveryJob {
  return {
    deliveryId: row.id,
    transport,
    document: {
      body: row.document,
      contentType: row.content_type,
      fileName: row.file_name,
      idempotencyKey: row.id,
    },
    log: {
      deliveryId: row.id,
      snapshotId: row.snapshot_id,
      brandId: row.brand_id,
      facilityId: row.facility_id,
      retailerId: row.retailer_id,
      documentBytes: Buffer.byteLength(row.document),
    },
    automatic,
  };
}

export interface JobOutcome {
  success: boolean;
  error: string | null;
}

/**
 * Sends committed deliveries in parallel (bounded), then records every outcome and its attempts
 * in one transaction: one commit (one fsync) per call, not one per delivery. The caller has
 * claimed every job (claimDelivery); the claims are released only once the outcomes are durable,
 * so nobody sees a stale state and sends again meanwhile. No database transaction is open while a
 * transport waits on the network; a crash before the commit leaves the rows PENDING and due, and
 * the drainer sends them again with the same idempotency key, as after a crash mid-send.
 */
export async function runDeliveries(
  ctx: ServiceContext,
  jobs: DeliveryJob[],
): Promise<Map<string, JobOutcome>> {
  for (const job of jobs) ctx.deliveriesInFlight.add(job.deliveryId);
  try {
    const sent = await mapBounded(jobs, ctx.deliveryConcurrency, async (job) => ({
      job,
      outcome: await deliver(job.transport, job.document, {
        dataDir: ctx.dataDir,
        policy: ctx.deliveryPolicy,
      }),
    }));
    await recordOutcomes(ctx, sent);
    return new Map(
      sent.map(({ job, outcome }) => [
        job.deliveryId,
        { success: outcome.success, error: outcome.error },
      ]),
    );
  } finally {
    for (const job of jobs) releaseDelivery(ctx, job.deliveryId);
  }
}

/** Writes the attempts and each delivery's new state and plan, all in one transaction. */
async function recordOutcomes(
  ctx: ServiceContext,
  sent: { job: DeliveryJob; outcome: DeliveryOutcome }[],
): Promise<void> {
  if (sent.length === 0) return;
  const now = ctx.clock.now();
  const at = now.toISOString();
  const policy = ctx.redeliveryPolicy ?? defaultRedeliveryPolicy;
  await ctx.db.transaction().execute(async (trx) => {
    await insertAttempts(
      trx,
      sent.map(({ job, outcome }) => ({ context: job.log, attempts: outcome.attempts })),
    );
    const states = await deliveryStates(
      trx,
      sent.map(({ job }) => job.deliveryId),
    );
    for (const { job, outcome } of sent) {
      const current = states.get(job.deliveryId);
      if (!current) continue;
      const plan = planAfterOutcome(
        current,
        { ...outcome, automatic: job.automatic ?? false },
        now,
        policy,
      );
      await completeDelivery(trx, job.deliveryId, {
        ...plan,
        attempts: outcome.attempts.length,
        at,
      });
    }
  });
}
