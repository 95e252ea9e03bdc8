import { completeDelivery, insertAttempts, type AttemptContext } from '../db/advice';
import type { ServiceContext } from '../domain/context';
import { mapBounded } from './bounded';
import { deliver } from './transports';
import type { DeliveryOutcome, OutboundDocument, TransportConfig } from './types';

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
 * Sends committed deliveries in parallel (bounded), then records each outcome and its attempts.
 * No database transaction is open while a transport waits on the network.
 */
export async function runDeliveries(
  ctx: ServiceContext,
  jobs: DeliveryJob[],
): Promise<Map<string, JobOutcome>> {
  const writer = new OutcomeWriter(ctx);
  for (const job of jobs) ctx.deliveriesInFlight.add(job.deliveryId);
  const outcomes = await mapBounded(jobs, ctx.deliveryConcurrency, async (job) => {
    const outcome = await deliver(job.transport, job.document, {
      dataDir: ctx.dataDir,
      policy: ctx.deliveryPolicy,
    }).finally(() => ctx.deliveriesInFlight.delete(job.deliveryId));
    await writer.record(job, outcome);
    return [job.deliveryId, { success: outcome.success, error: outcome.error }] as const;
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
    const at = this.ctx.clock.now().toISOString();
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        for (const { job, outcome } of batch) {
          await insertAttempts(trx, job.log, outcome.attempts);
          await completeDelivery(trx, job.deliveryId, {
            status: outcome.success ? 'SUCCESS' : 'FAILURE',
            error: outcome.success ? null : outcome.error,
            attempts: outcome.attempts.length,
            at,
          });
        }
      });
      for (const entry of batch) entry.done();
    } catch (error) {
      for (const entry of batch) entry.done(error);
    }
  }
}
