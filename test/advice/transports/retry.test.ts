import { describe, expect, it } from 'vitest';
import {
  backoffCeilingMs,
  backoffDelayMs,
  parseRetryAfter,
  runWithRetry,
  type AttemptResult,
} from '../../../src/server/inventory/transmission/retry';
import type { DeliveryPolicy } from '../../../src/server/inventory/transmission/types';

const policy: DeliveryPolicy = {
  attemptTimeoutMs: 500,
  totalBudgetMs: 10_000,
  maxAttempts: 4,
  baseBackoffMs: 100,
  maxBackoffMs: 1_000,
};

const transientFailure = (overrides: Partial<AttemptResult> = {}): AttemptResult => ({
  ok: false,
  requestUrl: 'http://partner.test/846',
  responseStatus: 503,
  responseBody: 'busy',
  error: '503: busy',
  transient: true,
  retryAfterMs: null,
  ...overrides,
});

const okResult: AttemptResult = {
  ok: true,
  requestUrl: 'http://partner.test/846',
  responseStatus: 200,
  responseBody: 'ok',
  error: null,
  transient: false,
  retryAfterMs: null,
};

/** A clock that only moves when the code under test sleeps or an attempt "takes" time. */
function fakeClock(startMs = 1_700_000_000_000) {
  let nowMs = startMs;
  const waits: number[] = [];
  return {
    waits,
    now: () => nowMs,
    advance: (ms: number) => {
      nowMs += ms;
    },
    sleep: async (ms: number) => {
      waits.push(ms);
      nowMs += ms;
    },
  };
}

/** Replays scripted results, one per attempt; the last one repeats. */
function scripted(...results: AttemptResult[]) {
  const timeouts: number[] = [];
  const attempt = async (timeoutMs: number) => {
    timeouts.push(timeoutMs);
    return results[Math.min(timeouts.length - 1, results.length - 1)]!;
  };
  return { attempt, timeouts };
}

describe('backoff', () => {
  it('doubles from the base and is capped at maxBackoffMs', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 10].map((n) => backoffCeilingMs(n, policy));
    expect(ceilings).toEqual([100, 200, 400, 800, 1_000, 1_000, 1_000]);
  });

  it('applies full jitter between zero and the ceiling', () => {
    expect(backoffDelayMs(3, policy, () => 0)).toBe(0);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(200);
    expect(backoffDelayMs(3, policy, () => 0.999999)).toBe(400);
    for (let i = 0; i < 100; i++) {
      const delay = backoffDelayMs(5, policy);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(1_000);
    }
  });

  it('waits growing, capped backoffs between retries', async () => {
    const clock = fakeClock();
    const { attempt } = scripted(transientFailure());
    const outcome = await runWithRetry(attempt, {
      policy: { ...policy, maxAttempts: 6, baseBackoffMs: 300 },
      ...clock,
      random: () => 1,
    });
    expect(clock.waits).toEqual([300, 600, 1_000, 1_000, 1_000]);
    expect(outcome.attempts.map((a) => a.status)).toEqual([
      'RETRY',
      'RETRY',
      'RETRY',
      'RETRY',
      'RETRY',
      'FAILURE',
    ]);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('1', now)).toBe(1_000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
  });

  it('reads HTTP-dates in all three RFC 9110 forms', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wednesday, 21-Oct-15 07:28:45 GMT', now)).toBe(45_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
  });

  it('ignores missing or malformed values', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter('1.5', now)).toBeNull();
  });
});

describe('runWithRetry', () => {
  it('records one SUCCESS when the first attempt works', async () => {
    const clock = fakeClock();
    const outcome = await runWithRetry(
      async () => {
        clock.advance(42);
        return okResult;
      },
      { policy, ...clock },
    );
    expect(outcome).toEqual({
      success: true,
      error: null,
      retryable: false,
      attempts: [
        {
          attempt: 1,
          requestUrl: 'http://partner.test/846',
          startedAt: new Date(1_700_000_000_000),
          durationMs: 42,
          status: 'SUCCESS',
          responseStatus: 200,
          responseBody: 'ok',
          error: null,
        },
      ],
    });
  });

  it('retries transient failures and marks them RETRY', async () => {
    const clock = fakeClock();
    const { attempt } = scripted(transientFailure(), transientFailure(), okResult);
    const outcome = await runWithRetry(attempt, { policy, ...clock, random: () => 0.5 });
    expect(outcome.success).toBe(true);
    expect(outcome.attempts.map((a) => [a.attempt, a.status, a.error])).toEqual([
      [1, 'RETRY', '503: busy'],
      [2, 'RETRY', '503: busy'],
      [3, 'SUCCESS', null],
    ]);
    expect(clock.waits).toEqual([50, 100]);
  });

  it('stops after maxAttempts with the last error', async () => {
    const clock = fakeClock();
    const { attempt, timeouts } = scripted(transientFailure());
    const outcome = await runWithRetry(attempt, { policy, ...clock });
    expect(timeouts).toHaveLength(4);
    expect(outcome.success).toBe(false);
    expect(outcome.error).toBe('503: busy');
    // A later try (the background drainer) may still succeed.
    expect(outcome.retryable).toBe(true);
    expect(outcome.attempts.map((a) => a.status)).toEqual(['RETRY', 'RETRY', 'RETRY', 'FAILURE']);
  });

  it('does not retry permanent failures', async () => {
    const clock = fakeClock();
    const permanent = transientFailure({
      transient: false,
      responseStatus: 400,
      error: '400: bad',
    });
    const { attempt, timeouts } = scripted(permanent);
    const outcome = await runWithRetry(attempt, { policy, ...clock });
    expect(timeouts).toHaveLength(1);
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
    expect(outcome.error).toBe('400: bad');
    expect(outcome.retryable).toBe(false);
    expect(clock.waits).toEqual([]);
  });

  it('honours Retry-After instead of the backoff', async () => {
    const clock = fakeClock();
    const { attempt } = scripted(transientFailure({ retryAfterMs: 1_500 }), okResult);
    const outcome = await runWithRetry(attempt, { policy, ...clock, random: () => 0 });
    expect(outcome.success).toBe(true);
    expect(clock.waits).toEqual([1_500]);
  });

  it('fails at once when Retry-After exceeds the remaining budget', async () => {
    const clock = fakeClock();
    const tooLong = transientFailure({
      responseStatus: 429,
      error: '429: slow down',
      retryAfterMs: 60_000,
    });
    const { attempt, timeouts } = scripted(tooLong, okResult);
    const outcome = await runWithRetry(attempt, { policy, ...clock });
    expect(timeouts).toHaveLength(1);
    expect(clock.waits).toEqual([]);
    expect(outcome).toMatchObject({ success: false, error: '429: slow down', retryable: true });
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
  });

  it('stops when the next backoff does not fit in the budget', async () => {
    const clock = fakeClock();
    const { attempt, timeouts } = scripted(transientFailure());
    const outcome = await runWithRetry(attempt, {
      policy: { ...policy, totalBudgetMs: 1_000, baseBackoffMs: 2_000, maxBackoffMs: 5_000 },
      ...clock,
      random: () => 1,
    });
    expect(timeouts).toHaveLength(1);
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
  });

  it('cuts each attempt timeout to the remaining budget and never overruns it', async () => {
    const clock = fakeClock();
    const start = clock.now();
    const timeouts: number[] = [];
    const outcome = await runWithRetry(
      async (timeoutMs) => {
        timeouts.push(timeoutMs);
        clock.advance(Math.min(timeoutMs, 400)); // each attempt hangs until its timeout, at most 400 ms
        return transientFailure({ error: 'ETIMEDOUT: request timed out', responseStatus: null });
      },
      {
        policy: {
          ...policy,
          attemptTimeoutMs: 500,
          totalBudgetMs: 1_000,
          maxAttempts: 10,
          baseBackoffMs: 0,
        },
        ...clock,
      },
    );
    expect(timeouts).toEqual([500, 500, 200]);
    expect(clock.now() - start).toBeLessThanOrEqual(1_000);
    expect(outcome.attempts.map((a) => a.status)).toEqual(['RETRY', 'RETRY', 'FAILURE']);
  });

  it('turns a throwing attempt into a FAILURE instead of throwing', async () => {
    const clock = fakeClock();
    const outcome = await runWithRetry(
      async () => {
        throw new Error('boom');
      },
      { policy, ...clock },
    );
    expect(outcome.success).toBe(false);
    expect(outcome.error).toBe('EINTERNAL: boom');
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
  });
});
