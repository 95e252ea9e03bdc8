import type { AttemptContext, DeliveryToSend } from '../queries';
import type { ServiceContext } from '../../core/context';
import { mapBounded } from './bounded';
import { leaseDelivery, releaseDeliveryLease } from './delivery-lease';
import { OutcomeBatch } from './outcome-batch';
import { deliver } from './transports';
import type { OutboundDocument, TransportConfig } from './types';

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

/** A job another central process is sending (or has sent): nothing recorded, nothing sent. */
export const SENT_ELSEWHERE = 'Not sent: another service process is sending this delivery';

export interface JobOutcome {
  success: boolean;
  error: string | null;
}

/**
 * Sends committed deliveries in parallel (bounded) and records each outcome and its attempts.
 * Outcomes are written in groups (./outcome-batch): all of them in one commit when the sends
 * settle close together, as an advice's do. The caller has claimed every job (claimDelivery);
 * each claim is released only once its outcome is durable, so nobody sees a stale state and
 * sends again meanwhile. No database transaction is open while a transport waits on the network;
 * a crash before an outcome's commit leaves its row PENDING and due, and the drainer sends it
 * again with the same idempotency key, as after a crash mid-send.
 */
export async function runDeliveries(
  ctx: ServiceContext,
  jobs: DeliveryJob[],
): Promise<Map<string, JobOutcome>> {
  const batch = new OutcomeBatch(ctx);
  for (const job of jobs) ctx.deliveriesInFlight.add(job.deliveryId);
  const outcomes = await mapBounded(jobs, ctx.deliveryConcurrency, async (job) => {
    let leased = false;
    try {
      // Another central process may be sending it, or may have sent it since it was read.
      leased = await leaseDelivery(ctx, 'advice_deliveries', job.deliveryId);
      if (!leased) return [job.deliveryId, { success: false, error: SENT_ELSEWHERE }] as const;
      batch.started();
      const outcome = await deliver(job.transport, job.document, {
        dataDir: ctx.dataDir,
        policy: ctx.deliveryPolicy,
      });
      await batch.record(job, outcome);
      return [job.deliveryId, { success: outcome.success, error: outcome.error }] as const;
    } finally {
      try {
        if (leased) await releaseDeliveryLease(ctx, job.deliveryId);
      } finally {
        releaseDelivery(ctx, job.deliveryId);
      }
    }
  });
  return new Map(outcomes);
}
