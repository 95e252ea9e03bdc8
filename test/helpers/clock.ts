/** A clock the tests move forward by `offsetMs`; starts at the real time so tokens look ordinary. */
export function movableClock() {
  return {
    offsetMs: 0,
    now(): Date {
      return new Date(Date.now() + this.offsetMs);
    },
  };
}

/**
 * A clock the tests move by hand from `start`: due times and the order of snapshots follow it,
 * not real time. `advance()` moves it a minute.
 */
export function manualClock(start: string) {
  let now = Date.parse(start);
  return {
    clock: { now: () => new Date(now) },
    advance: (ms = 60_000) => {
      now += ms;
    },
    iso: (plusMs = 0) => new Date(now + plusMs).toISOString(),
  };
}
