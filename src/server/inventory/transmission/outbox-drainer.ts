/**
 * The loop that drains the outbox by itself: every `intervalMs` it runs one pass (see
 * domain/inventory/redeliver.ts). Passes never overlap; a failing pass is reported and the loop
 * goes on. Its state lives in the outbox rows, so it survives restarts.
 */

export interface OutboxDrainerOptions {
  /** Time between passes. */
  intervalMs: number;
  /** Time from start to the first pass (what a crash left is sent soon after a restart). */
  firstPassMs: number;
  /** How long stop() waits for a pass under way before letting it finish on its own. */
  stopGraceMs: number;
  onError(error: unknown): void;
}

export const defaultOutboxDrainerOptions: OutboxDrainerOptions = {
  intervalMs: 5_000,
  firstPassMs: 1_000,
  stopGraceMs: 2_000,
  onError: (error) => console.error(`outbox drain failed: ${(error as Error).message ?? error}`),
};

export interface OutboxDrainer {
  /** Runs a pass now (or joins the one under way). */
  drainNow(): Promise<void>;
  /** No pass starts after this; resolves when the current one ends or the grace is over. */
  stop(): Promise<void>;
}

export function startOutboxDrainer(
  pass: () => Promise<unknown>,
  options: Partial<OutboxDrainerOptions> = {},
): OutboxDrainer {
  const settings = { ...defaultOutboxDrainerOptions, ...options };
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const drainNow = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    running ??= startPass(pass)
      .then(
        () => undefined,
        // After stop() the database is closing under a late pass: nothing worth reporting.
        (error: unknown) => {
          if (!stopped) reportQuietly(settings.onError, error);
        },
      )
      .finally(() => {
        running = null;
      });
    return running;
  };
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      timer = null;
      void drainNow().then(() => {
        if (!stopped) schedule(settings.intervalMs);
      });
    }, ms);
    // The loop alone never keeps the process alive.
    timer.unref();
  };
  schedule(settings.firstPassMs);

  return {
    drainNow,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (!running) return;
      // A pass may wait on a slow partner for the whole delivery budget; closing must not.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        running,
        new Promise<void>((resolve) => {
          grace = setTimeout(resolve, settings.stopGraceMs);
          grace.unref();
        }),
      ]);
      clearTimeout(grace);
    },
  };
}

/**
 * Starts a pass at once (callers rely on it having begun), turning a pass that throws before it
 * returns a promise into a rejection: this runs from a timer, where anything that escapes would
 * end the process.
 */
function startPass(pass: () => Promise<unknown>): Promise<unknown> {
  try {
    return pass();
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Reports a background failure; a reporter that throws (a closed log stream) is ignored. */
export function reportQuietly(report: (error: unknown) => void, error: unknown): void {
  try {
    report(error);
  } catch {
    // Nothing left to tell: the loop must go on.
  }
}
