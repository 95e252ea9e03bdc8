import type { RedeliveryPolicy } from '../../core/policies';

export type { RedeliveryPolicy } from '../../core/policies';

/** 30 s, 1, 2, 4 … 32 min, then hourly: the 24th re-delivery comes about 18 h after the send. */
export const defaultRedeliveryPolicy: RedeliveryPolicy = {
  baseDelayMs: 30_000,
  maxDelayMs: 3_600_000,
  maxAutoRetries: 24,
};

/** Wait before the next background re-delivery, after `autoRetries` of them. */
export function redeliveryDelayMs(autoRetries: number, policy: RedeliveryPolicy): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, autoRetries));
}

export interface DeliveryPlan {
  status: 'SUCCESS' | 'FAILURE';
  error: string | null;
  autoRetries: number;
  /** ISO time of the next background re-delivery, or null when none is planned. */
  nextAttemptAt: string | null;
  givenUp: boolean;
}

/**
 * What the outbox row says after a send. A recorded SUCCESS is never downgraded by a late
 * failure; only failures a later try may fix (network trouble, timeouts, 408, 429, 5xx, a target
 * folder in trouble) are planned again, and not before the receiver's Retry-After.
 */
export function planAfterOutcome(
  current: { status: string; auto_retries: number },
  outcome: {
    success: boolean;
    error: string | null;
    retryable: boolean;
    automatic: boolean;
    retryAfterMs?: number;
  },
  at: Date,
  policy: RedeliveryPolicy,
): DeliveryPlan {
  const autoRetries = current.auto_retries + (outcome.automatic ? 1 : 0);
  if (current.status === 'SUCCESS' || outcome.success) {
    return { status: 'SUCCESS', error: null, autoRetries, nextAttemptAt: null, givenUp: false };
  }
  const failed = { status: 'FAILURE' as const, error: outcome.error, autoRetries };
  if (!outcome.retryable) return { ...failed, nextAttemptAt: null, givenUp: false };
  if (autoRetries >= policy.maxAutoRetries)
    return { ...failed, nextAttemptAt: null, givenUp: true };
  const waitMs = Math.min(
    policy.maxDelayMs,
    Math.max(redeliveryDelayMs(autoRetries, policy), outcome.retryAfterMs ?? 0),
  );
  const next = new Date(at.getTime() + waitMs);
  return { ...failed, nextAttemptAt: next.toISOString(), givenUp: false };
}
