import { completeDelivery, insertAttempts, type AttemptContext } from '../db/advice';
import type { ServiceContext } from '../domain/context';
import { mapBounded } from './bounded';
import { deliver } from './transports';
import type { OutboundDocument, TransportConfig } from './types';

/** A delivery whose outbox row is already committed (status PENDING). */
export interface DeliveryJob {
  deliveryId: string;
  transport: TransportConfig;
  document: OutboundDocument;
  log: AttemptContext;
}

export interface JobOutcome {
  success: boolean;
  error: string | null;
}

/**
 * Sends committed deliveries in parallel (bounded), then records each outcome and its attempts in
 * one short transaction. No database transaction is open while a transport waits on the network.
 */
export async function runDeliveries(
  ctx: ServiceContext,
  jobs: DeliveryJob[],
): Promise<Map<string, JobOutcome>> {
  for (const job of jobs) ctx.deliveriesInFlight.add(job.deliveryId);
  const outcomes = await mapBounded(jobs, ctx.deliveryConcurrency, async (job) => {
    const outcome = await deliver(job.transport, job.document, {
      dataDir: ctx.dataDir,
      policy: ctx.deliveryPolicy,
    }).finally(() => ctx.deliveriesInFlight.delete(job.deliveryId));
    await ctx.db.transaction().execute(async (trx) => {
      await insertAttempts(trx, job.log, outcome.attempts);
      await completeDelivery(trx, job.deliveryId, {
        status: outcome.success ? 'SUCCESS' : 'FAILURE',
        error: outcome.success ? null : outcome.error,
        attempts: outcome.attempts.length,
        at: ctx.clock.now().toISOString(),
      });
    });
    return [job.deliveryId, { success: outcome.success, error: outcome.error }] as const;
  });
  return new Map(outcomes);
}
