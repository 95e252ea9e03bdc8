/**
 * How long a service's close waits for each of its steps (in-flight requests, then the database)
 * before it stops waiting. A request stuck on the database (a lock held elsewhere, a statement the
 * server is slow to answer) must not hold a shutdown, or a test's teardown, forever; the pool's
 * statement timeout (db/postgres/open.ts) ends such a request on its own, later.
 */
export const CLOSE_STEP_MS = 10_000;

/**
 * Waits for `step` at most `ms`. Past that, calls `giveUp` (which ends what it can: open
 * connections, say), says so on stderr, and goes on without it; a later failure of the step is
 * ignored, since nothing waits for it any more.
 */
export async function within(
  what: string,
  step: Promise<unknown>,
  ms: number,
  giveUp: () => void = () => {},
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    if ((await Promise.race([step, late])) !== 'late') return;
  } finally {
    clearTimeout(timer);
  }
  step.catch(() => undefined);
  console.error(`close: ${what} did not end within ${ms} ms; closing without waiting for it`);
  giveUp();
}
