/** The drainer's plan after an outcome (backoff, ceiling, limit) and its loop (no overlap, stop). */
import { describe, expect, it } from 'vitest';
import { startOutboxDrainer } from '../../src/server/inventory/transmission/outbox-drainer';
import {
  defaultRedeliveryPolicy,
  planAfterOutcome,
  redeliveryDelayMs,
} from '../../src/server/inventory/transmission/redelivery';

const at = new Date('2030-01-01T00:00:00.000Z');
const failure = { success: false, error: '503: down', retryable: true, automatic: true };
const plus = (ms: number) => new Date(at.getTime() + ms).toISOString();

describe('planAfterOutcome', () => {
  it('doubles the wait from 30 s up to the 1 h ceiling', () => {
    const delays = Array.from({ length: 10 }, (_, n) =>
      redeliveryDelayMs(n, defaultRedeliveryPolicy),
    );
    expect(delays).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000,
      3_600_000,
    ]);
  });

  it('plans a retryable failure of the first send 30 s later, counting no background retry', () => {
    const plan = planAfterOutcome(
      { status: 'PENDING', auto_retries: 0 },
      { ...failure, automatic: false },
      at,
      defaultRedeliveryPolicy,
    );
    expect(plan).toEqual({
      status: 'FAILURE',
      error: '503: down',
      autoRetries: 0,
      nextAttemptAt: plus(30_000),
      givenUp: false,
    });
  });

  it('counts a background re-delivery and waits longer after it', () => {
    const plan = planAfterOutcome(
      { status: 'FAILURE', auto_retries: 3 },
      failure,
      at,
      defaultRedeliveryPolicy,
    );
    expect(plan).toMatchObject({ autoRetries: 4, nextAttemptAt: plus(480_000), givenUp: false });
  });

  it("waits at least the partner's Retry-After, never past the ceiling", () => {
    const plan = (retryAfterMs: number) =>
      planAfterOutcome(
        { status: 'FAILURE', auto_retries: 0 },
        { ...failure, automatic: false, retryAfterMs },
        at,
        defaultRedeliveryPolicy,
      ).nextAttemptAt;
    expect(plan(5_000)).toBe(plus(30_000));
    expect(plan(120_000)).toBe(plus(120_000));
    expect(plan(86_400_000)).toBe(plus(3_600_000));
  });

  it('gives up after the limit of background re-deliveries', () => {
    const limit = defaultRedeliveryPolicy.maxAutoRetries;
    const plan = planAfterOutcome(
      { status: 'FAILURE', auto_retries: limit - 1 },
      failure,
      at,
      defaultRedeliveryPolicy,
    );
    expect(plan).toMatchObject({ autoRetries: limit, nextAttemptAt: null, givenUp: true });
  });

  it('plans nothing after a failure a retry cannot fix (a 4xx, a bad setting)', () => {
    const plan = planAfterOutcome(
      { status: 'PENDING', auto_retries: 0 },
      { success: false, error: '400: bad sku', retryable: false, automatic: false },
      at,
      defaultRedeliveryPolicy,
    );
    expect(plan).toMatchObject({ status: 'FAILURE', nextAttemptAt: null, givenUp: false });
  });

  it('never downgrades a recorded SUCCESS, and plans nothing after one', () => {
    const late = planAfterOutcome(
      { status: 'SUCCESS', auto_retries: 2 },
      failure,
      at,
      defaultRedeliveryPolicy,
    );
    expect(late).toMatchObject({ status: 'SUCCESS', error: null, nextAttemptAt: null });
    const success = planAfterOutcome(
      { status: 'FAILURE', auto_retries: 2 },
      { success: true, error: null, retryable: false, automatic: true },
      at,
      defaultRedeliveryPolicy,
    );
    expect(success).toEqual({
      status: 'SUCCESS',
      error: null,
      autoRetries: 3,
      nextAttemptAt: null,
      givenUp: false,
    });
  });
});

describe('startOutboxDrainer', () => {
  /** A pass that stays open until released, counting how often it started. */
  function blockingPass() {
    let calls = 0;
    let release = () => {};
    const pass = () => {
      calls += 1;
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    };
    return { pass, calls: () => calls, release: () => release() };
  }

  it('never runs two passes at once: drainNow joins the pass under way', async () => {
    const { pass, calls, release } = blockingPass();
    const drainer = startOutboxDrainer(pass, { firstPassMs: 60_000, intervalMs: 60_000 });
    const first = drainer.drainNow();
    const joined = Array.from({ length: 50 }, () => drainer.drainNow());
    expect(calls()).toBe(1);
    release();
    await Promise.all([first, ...joined]);
    // Once it ended, the next call starts a new pass.
    const second = drainer.drainNow();
    expect(calls()).toBe(2);
    release();
    await second;
    await drainer.stop();
  });

  it('runs by itself on its interval and goes on after a failing pass', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    let done: () => void = () => {};
    const thirdPass = new Promise<void>((resolve) => (done = resolve));
    const drainer = startOutboxDrainer(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database busy');
        if (calls === 3) done();
      },
      { firstPassMs: 0, intervalMs: 1, onError: (error) => errors.push(error) },
    );
    await thirdPass;
    await drainer.stop();
    expect(errors).toEqual([new Error('database busy')]);
  });

  it('stop() does not wait for a pass stuck on a partner beyond its grace, and starts none after', async () => {
    const { pass, calls } = blockingPass();
    const drainer = startOutboxDrainer(pass, {
      firstPassMs: 60_000,
      intervalMs: 60_000,
      stopGraceMs: 10,
    });
    void drainer.drainNow();
    await drainer.stop(); // resolves although the pass never ends
    await drainer.drainNow();
    expect(calls()).toBe(1);
  });
});
