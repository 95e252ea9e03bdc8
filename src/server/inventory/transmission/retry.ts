/**
 * The retry loop shared by every advice transport: run an attempt, record it, and try again
 * on transient failures while attempts and the total time budget allow.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { AttemptRecord, DeliveryOutcome, DeliveryPolicy } from './types';

/** What one transport attempt reports back to the loop. */
export interface AttemptResult {
  ok: boolean;
  requestUrl: string;
  responseStatus: number | null;
  /** Response body (already truncated by the transport) or null. */
  responseBody: string | null;
  /** `<status>: <text>` or `<CODE>: <text>`; null when ok. */
  error: string | null;
  /** Whether trying again may succeed: network trouble, timeouts, 429, 5xx. */
  transient: boolean;
  /** Wait the server asked for (Retry-After), in ms, or null. */
  retryAfterMs: number | null;
}

/** One try at delivery; must finish (or give up) within `timeoutMs`. */
export type Attempt = (timeoutMs: number) => Promise<AttemptResult>;

export interface RetryOptions {
  policy: DeliveryPolicy;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Source of jitter in [0, 1); injectable so tests are deterministic. */
  random?: () => number;
}

const realSleep = async (ms: number): Promise<void> => {
  await delay(ms);
};

/** Upper bound of the backoff before retry number `retryNumber` (1 = first retry). */
export function backoffCeilingMs(retryNumber: number, policy: DeliveryPolicy): number {
  const exponential = policy.baseBackoffMs * 2 ** Math.max(0, retryNumber - 1);
  return Math.min(policy.maxBackoffMs, exponential);
}

/** Full jitter: a uniform wait in [0, ceiling], which spreads retries of many clients apart. */
export function backoffDelayMs(
  retryNumber: number,
  policy: DeliveryPolicy,
  random: () => number = Math.random,
): number {
  return Math.round(random() * backoffCeilingMs(retryNumber, policy));
}

/** Retry-After is either delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Every HTTP-date names a weekday and month; without letters, Date.parse would take "-5"
  // or "1.5" for a year.
  if (!/[a-z]/i.test(trimmed)) return null;
  const dateMs = Date.parse(trimmed);
  if (Number.isNaN(dateMs)) return null;
  return Math.max(0, dateMs - nowMs);
}

/** Wait before the next attempt, or null when the failure should be final. */
function nextWaitMs(
  result: AttemptResult,
  attemptNumber: number,
  remainingMs: number,
  options: RetryOptions,
): number | null {
  if (!result.transient || attemptNumber >= options.policy.maxAttempts) return null;
  const waitMs =
    result.retryAfterMs ?? backoffDelayMs(attemptNumber, options.policy, options.random);
  // A wait that leaves no time for the next attempt is pointless: fail now instead.
  return waitMs < remainingMs ? waitMs : null;
}

/** Any throw from an attempt is a bug in the transport; it still becomes a plain failure. */
async function runAttemptSafely(attempt: Attempt, timeoutMs: number): Promise<AttemptResult> {
  try {
    return await attempt(timeoutMs);
  } catch (err) {
    return {
      ok: false,
      requestUrl: '',
      responseStatus: null,
      responseBody: null,
      error: `EINTERNAL: ${err instanceof Error ? err.message : String(err)}`,
      transient: false,
      retryAfterMs: null,
    };
  }
}

export async function runWithRetry(
  attempt: Attempt,
  options: RetryOptions,
): Promise<DeliveryOutcome> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const deadline = now() + options.policy.totalBudgetMs;
  const attempts: AttemptRecord[] = [];

  for (let attemptNumber = 1; ; attemptNumber++) {
    const startedAtMs = now();
    const timeoutMs = Math.max(
      1,
      Math.min(options.policy.attemptTimeoutMs, deadline - startedAtMs),
    );
    const result = await runAttemptSafely(attempt, timeoutMs);
    const finishedAtMs = now();
    const waitMs = result.ok
      ? null
      : nextWaitMs(result, attemptNumber, deadline - finishedAtMs, options);

    attempts.push({
      attempt: attemptNumber,
      requestUrl: result.requestUrl,
      startedAt: new Date(startedAtMs),
      durationMs: finishedAtMs - startedAtMs,
      status: result.ok ? 'SUCCESS' : waitMs === null ? 'FAILURE' : 'RETRY',
      responseStatus: result.responseStatus,
      responseBody: result.responseBody,
      error: result.ok ? null : result.error,
    });

    if (result.ok) return { success: true, error: null, retryable: false, attempts };
    if (waitMs === null) {
      const asked = result.retryAfterMs === null ? {} : { retryAfterMs: result.retryAfterMs };
      return {
        success: false,
        error: result.error,
        retryable: result.transient,
        ...asked,
        attempts,
      };
    }
    await sleep(waitMs);
  }
}
