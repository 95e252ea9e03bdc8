/**
 * What a ship-to address needs before cartons can leave: a carrier cannot deliver, and a
 * retailer's routing guide charges back, without a street, a city and a postal code. Shared by
 * the Ship step's refusal, the compliance report and the labels, so they never disagree.
 */
const REQUIRED_PARTS = [
  ['address_line1', 'street'],
  ['city', 'city'],
  ['zip', 'postal code'],
] as const;

const filled = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** The missing parts in words; `['address']` when there is no ship-to contact at all. */
export function missingShipToParts(contact: Record<string, unknown> | null | undefined): string[] {
  if (!contact || !REQUIRED_PARTS.some(([field]) => filled(contact[field]))) return ['address'];
  return REQUIRED_PARTS.filter(([field]) => !filled(contact[field])).map(([, words]) => words);
}

/** "no ship-to address", "ship-to address has no city or postal code", or null when complete. */
export function shipToProblem(contact: Record<string, unknown> | null | undefined): string | null {
  const missing = missingShipToParts(contact);
  if (missing.length === 0) return null;
  if (missing[0] === 'address') return 'no ship-to address';
  const parts =
    missing.length === 1
      ? missing[0]
      : `${missing.slice(0, -1).join(', ')} or ${missing[missing.length - 1]}`;
  return `ship-to address has no ${parts}`;
}
