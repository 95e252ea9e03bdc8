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
