/** Date and time to the second, in the workstation's locale (deliveries seconds apart must differ). */
export function formatTime(iso: string, locale?: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A coming moment: the time alone when it is today, with the date otherwise. */
export function formatUpcoming(iso: string, now: Date = new Date(), locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toDateString() === now.toDateString()
    ? date.toLocaleTimeString(locale, { timeStyle: 'medium' })
    : formatTime(iso, locale);
}

/** A stored instant to the minute, for tables: `Nov 13, 2026, 3:02 PM`. */
export function formatShortTime(iso: string, locale?: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A calendar date (`YYYY-MM-DD`, or the date part of an ISO instant) as written, so a date never
 * moves a day with the workstation's time zone; null stays null.
 */
export function formatDate(value: string | null): string | null {
  if (value === null) return null;
  const match = /^\d{4}-\d{2}-\d{2}/.exec(value);
  return match ? match[0] : value;
}
