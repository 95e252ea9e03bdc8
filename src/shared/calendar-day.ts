/** The day after a `YYYY-MM-DD` day: an inclusive "on or before" bound becomes an exclusive one. */
export function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}
