import { transportOf } from './transmission/documents';
import {
  claimDelivery,
  releaseDelivery,
  resendJob,
  runDeliveries,
  type DeliveryJob,
} from './transmission/engine';
import { leaseDelivery, releaseDeliveryLease } from './transmission/delivery-lease';
import {
  findDeliveryToSend,
  giveUpDelivery,
  listDueDeliveries,
  newerSnapshotOutboxed,
} from './queries';
import { ownSenderIds } from '../sync/role';
import type { ServiceContext } from '../core/context';

/** Deliveries one drain pass takes on (sent `deliveryConcurrency` at a time). */
export const DRAIN_BATCH_SIZE = 32;

export const SUPERSEDED_MESSAGE =
  'Not sent again automatically: a newer snapshot for this connection replaces it';
export const NOTHING_TO_SEND_MESSAGE = 'Not sent again automatically: nothing to send';
export const DISABLED_MESSAGE = 'Not sent again automatically: the connection is disabled';

/**
 * One pass of the background drainer: sends every delivery whose re-delivery is due (PENDING
 * rows a crash left, failures a later try may fix), at most `limit`. A delivery being sent by
 * this process (a send, a manual retry, another pass) is skipped, and one whose connection has a
 * newer snapshot of the same scope is never sent again: a full snapshot replaces stock levels,
 * and two in flight could arrive in either order. Resolves once the outcomes are recorded, with
 * the number of deliveries sent.
 */
export async function redeliverDue(ctx: ServiceContext, limit: number): Promise<number> {
  const now = ctx.clock.now().toISOString();
  const due = await listDueDeliveries(
    ctx.db,
    now,
    limit,
    ctx.deliveriesInFlight,
    ownSenderIds(ctx.sync),
  );
  const jobs: DeliveryJob[] = [];
  try {
    for (const { id } of due) {
      if (!claimDelivery(ctx, id)) continue;
      // On PostgreSQL, the lease keeps other central processes off it while it is read and sent
      // (runDeliveries takes it again, then gives it back once the outcome is committed).
      const job = await leasedJob(ctx, id, now).catch((error: unknown) => {
        releaseDelivery(ctx, id);
        throw error;
      });
      if (job) jobs.push(job);
      else releaseDelivery(ctx, id);
    }
  } catch (error) {
    for (const job of jobs) releaseDelivery(ctx, job.deliveryId);
    throw error;
  }
  if (jobs.length > 0) await runDeliveries(ctx, jobs);
  return jobs.length;
}

/** claimedJob under this process's lease; null (and the lease given back) when nothing is sent. */
async function leasedJob(
  ctx: ServiceContext,
  deliveryId: string,
  now: string,
): Promise<DeliveryJob | null> {
  if (!(await leaseDelivery(ctx, 'advice_deliveries', deliveryId))) return null;
  let job: DeliveryJob | null = null;
  try {
    job = await claimedJob(ctx, deliveryId, now);
    return job;
  } finally {
    if (!job) await releaseDeliveryLease(ctx, deliveryId);
  }
}

/** The job for a claimed delivery, or null when it is no longer due (or never will be). */
async function claimedJob(
  ctx: ServiceContext,
  deliveryId: string,
  now: string,
): Promise<DeliveryJob | null> {
  // Read after the claim: another pass or a retry may have sent it since the list was read.
  const row = await findDeliveryToSend(ctx.db, deliveryId);
  if (!row || row.status === 'SUCCESS' || row.next_attempt_at === null) return null;
  if (!ownSenderIds(ctx.sync).includes(row.sender_id)) return null;
  if (row.next_attempt_at > now) return null;
  const { document, content_type, file_name, transport_json, connection_id } = row;
  if (!document || !content_type || !file_name || !transport_json || !connection_id) {
    await giveUpDelivery(ctx.db, deliveryId, NOTHING_TO_SEND_MESSAGE, now);
    return null;
  }
  if (!row.connection_enabled) {
    // A disabled connection receives nothing; a clerk may still retry by hand.
    await giveUpDelivery(ctx.db, deliveryId, DISABLED_MESSAGE, now);
    return null;
  }
  if (
    await newerSnapshotOutboxed(ctx.db, connection_id, row.facility_id, row.snapshot_created_at)
  ) {
    await giveUpDelivery(ctx.db, deliveryId, SUPERSEDED_MESSAGE, now);
    return null;
  }
  return resendJob(
    { ...row, document, content_type, file_name },
    transportOf({ transport_json }),
    true,
  );
}
