import { completeDelivery, deliveryStates, insertAttempts, type AttemptContext } from '../queries';
import type { ServiceContext } from '../../core/context';
import { defaultRedeliveryPolicy, planAfterOutcome } from './redelivery';
import { worthTryingAgain } from './target-faults';
import type { DeliveryOutcome } from './types';

/**
 * How long a settled outcome may wait for the other sends of the same call before it is written
 * anyway: a slow or unreachable partner (up to the whole delivery budget) must not keep the
 * others' outcomes undurable and their rows PENDING for that long.
 */
export const OUTCOME_LINGER_MS = 50;

/** What of a DeliveryJob (./engine) the outcome's write needs. */
interface SentJob {
  deliveryId: string;
  log: AttemptContext;
  /** Sent by the background drainer (counts towards its backoff and limit). */
  automatic?: boolean;
}

interface Settled {
  job: SentJob;
  outcome: DeliveryOutcome;
  done: (error?: unknown) => void;
}

/**
 * Group commit of the outcomes of one runDeliveries call: the settled ones are written together,
 * in one transaction (one fsync), as soon as no send of the call is under way, or `lingerMs` after
 * the first of them settled, whichever comes first. An advice's sends to healthy partners settle
 * within a few milliseconds of each other, so an advice costs one outcome commit instead of one
 * per delivery. Each caller still waits until its own outcome is durable.
 */
export class OutcomeBatch {
  private pending: Settled[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Sends under way, whose outcomes may still join the batch. */
  private sending = 0;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly lingerMs = OUTCOME_LINGER_MS,
  ) {}

  /** A send starts; its outcome will come through record(). */
  started(): void {
    this.sending += 1;
  }

  record(job: SentJob, outcome: DeliveryOutcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ job, outcome, done: (error) => (error ? reject(error) : resolve()) });
      this.sending -= 1;
      if (this.sending <= 0) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.lingerMs);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    // Settles every caller: this may run from a timer, where a throw would end the process.
    recordOutcomes(this.ctx, batch).then(
      () => batch.forEach((entry) => entry.done()),
      (error: unknown) => batch.forEach((entry) => entry.done(error ?? new Error('write failed'))),
    );
  }
}

/** Writes the attempts and each delivery's new state and plan, all in one transaction. */
async function recordOutcomes(ctx: ServiceContext, settled: Settled[]): Promise<void> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const policy = ctx.redeliveryPolicy ?? defaultRedeliveryPolicy;
  await ctx.db.transaction().execute(async (trx) => {
    await insertAttempts(
      trx,
      settled.map(({ job, outcome }) => ({ context: job.log, attempts: outcome.attempts })),
    );
    const states = await deliveryStates(
      trx,
      settled.map(({ job }) => job.deliveryId),
    );
    for (const { job, outcome } of settled) {
      const current = states.get(job.deliveryId);
      if (!current) continue;
      const plan = planAfterOutcome(
        current,
        {
          ...outcome,
          retryable: worthTryingAgain(outcome),
          automatic: job.automatic ?? false,
        },
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
