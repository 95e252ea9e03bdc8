/**
 * What a date range says when its start is after its end, on every screen with one (the services
 * answer such a range with an empty page, which looks like "nothing happened"): shown next to the
 * dates instead.
 */
export function dateRangeProblem(from: string | undefined, to: string | undefined): string | null {
  return from && to && from > to ? 'From is after To.' : null;
}

/** What a list shows in place of "nothing matches" while its range is the wrong way round. */
export function fixTheDates(problem: string): string {
  return `Change the dates: ${problem}`;
}
