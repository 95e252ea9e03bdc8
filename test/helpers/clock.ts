/** A clock the tests move forward by `offsetMs`; starts at the real time so tokens look ordinary. */
export function movableClock() {
  return {
    offsetMs: 0,
    now(): Date {
      return new Date(Date.now() + this.offsetMs);
    },
  };
}
