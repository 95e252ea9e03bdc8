/** An HTTP-date (`Tue, 06 Jan 2026 12:00:00 GMT`) as a moment in time; null when absent or unreadable. */
export function timeOfHttpDate(value: string | null): number | null {
  if (value === null) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

/** An HTTP-date to the minute in the workstation's locale and time zone; `—` when absent. */
export function formatHttpDate(value: string | null, locale?: string, timeZone?: string): string {
  const time = timeOfHttpDate(value);
  if (time === null) return value ?? '—';
  return new Date(time).toLocaleString(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  });
}

/** A count with the locale's grouping (`1,300`). */
export function formatCount(value: number, locale?: string): string {
  return value.toLocaleString(locale);
}
