const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** An amount in dollars as people read it: `$1,250.50`. */
export function formatMoney(amount: number): string {
  return dollars.format(amount);
}

/** A count of units: `1,250`. */
export function formatUnits(units: number): string {
  return whole.format(units);
}

/** The workstation's calendar day as `YYYY-MM-DD` (deadlines are calendar days, not instants). */
export function localDay(now: Date = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

/** Whole days from calendar day `from` to `to` (both `YYYY-MM-DD`); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  return Math.round((end - start) / 86_400_000);
}
