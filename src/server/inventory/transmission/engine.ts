import {
  completeDelivery,
  deliveryState,
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
 * Sends committed deliveries in parallel (bounded), then records each outcome and its attempts.
 * The caller has claimed every job (claimDelivery); each claim is released only once its outcome
 * is durable, so nobody sees a stale state and sends again meanwhile. No database transaction is
 * open while a transport waits on the network.
 */
export async function runDeliveries(
  ctx: ServiceContext,
  jobs: DeliveryJob[],
): Promise<Map<string, JobOutcome>> {
  const writer = new OutcomeWriter(ctx);
  for (const job of jobs) ctx.deliveriesInFlight.add(job.deliveryId);
  const outcomes = await mapBounded(jobs, ctx.deliveryConcurrency, async (job) => {
    try {
      const outcome = await deliver(job.transport, job.document, {
        dataDir: ctx.dataDir,
        policy: ctx.deliveryPolicy,
      });
      await writer.record(job, outcome);
      return [job.deliveryId, { success: outcome.success, error: outcome.error }] as const;
    } finally {
      releaseDelivery(ctx, job.deliveryId);
    }
  });
  return new Map(outcomes);
}

/**
 * Outcomes that settle in the same turn of the event loop are written in one transaction (one
 * commit instead of one per connection); each caller still waits until its own outcome is durable.
 */
class OutcomeWriter {
  private pending: {
    job: DeliveryJob;
    outcome: DeliveryOutcome;
    done: (error?: unknown) => void;
  }[] = [];

  constructor(private readonly ctx: ServiceContext) {}

  record(job: DeliveryJob, outcome: DeliveryOutcome): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => void this.flush());
      this.pending.push({ job, outcome, done: (error) => (error ? reject(error) : resolve()) });
    });
  }

  private async flush() {
    const batch = this.pending.splice(0);
    // Everything inside the try: this runs from setImmediate, where a throw would end the process.
    try {
      const now = this.ctx.clock.now();
      const policy = this.ctx.redeliveryPolicy ?? defaultRedeliveryPolicy;
      await this.ctx.db.transaction().execute(async (trx) => {
        for (const { job, outcome } of batch) {
          await insertAttempts(trx, job.log, outcome.attempts);
          const current = await deliveryState(trx, job.deliveryId);
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
            at: now.toISOString(),
          });
        }
      });
      for (const entry of batch) entry.done();
    } catch (error) {
      for (const entry of batch) entry.done(error);
    }
  }
}
