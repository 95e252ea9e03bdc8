const UNITS = ['kB', 'MB', 'GB', 'TB'] as const;

/**
 * A size for people: "512 bytes", "16 MB", "2.1 GB" (units of 1,024). Shared so the service's
 * reasons and the screens' own words name a size the same way.
 */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${UNITS[unit]}`;
}
