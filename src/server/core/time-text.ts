/*
 * Stored times (ISO 8601 UTC text) rewritten for responses, many per page: the transaction log
 * (ISO with milliseconds) and orders analytics (HTTP-dates, 23 per order). Going through `Date`
 * costs ~0.3-0.7 µs a value, the largest part of our layer on those pages, so text already in the
 * canonical shape is rewritten by hand. The fast path only takes values whose every field is in
 * range (day up to 28, so no month rolls over), where it gives exactly what `Date` gives; anything
 * else goes through `Date` as before (test/unit/time-text.test.ts checks both agree).
 */

const CANONICAL =
  /^([1-9]\d{3})-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])(?:T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{3})?Z)?$/;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `new Date(text).toUTCString()`, or null when text is not a time. */
export function httpDateOf(text: string): string | null {
  const m = CANONICAL.exec(text);
  if (m) {
    const [, year, month, day, hours = '00', minutes = '00', seconds = '00'] = m;
    const weekday = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).getUTCDay();
    return `${DAYS[weekday]}, ${day} ${MONTHS[Number(month) - 1]} ${year} ${hours}:${minutes}:${seconds} GMT`;
  }
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toUTCString();
}

/** `new Date(Date.parse(text)).toISOString()`, or the text itself when it is not a time. */
export function isoTimeOf(text: string): string {
  const m = CANONICAL.exec(text);
  if (m?.[4] !== undefined && m[7] !== undefined) return text;
  const time = Date.parse(text);
  return Number.isNaN(time) ? text : new Date(time).toISOString();
}
