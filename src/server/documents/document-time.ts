/**
 * Times and dates as printed documents show them to people: in the install's time zone (the
 * process's, `TZ`), with the zone named, to the minute — "25 Nov 2026, 19:44 UTC" — never ISO
 * text with milliseconds. Calendar dates (`YYYY-MM-DD`) are days, not instants: they never shift
 * with the zone.
 */
export function documentTime(iso: string | null | undefined, timeZone?: string): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(date);
}

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `2026-11-25` as "25 Nov 2026"; any other text as it is. */
export function documentDate(day: string | null | undefined): string | null {
  if (!day) return null;
  if (!CALENDAR_DAY.test(day)) return day;
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
}
