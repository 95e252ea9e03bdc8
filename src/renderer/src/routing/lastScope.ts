/** The facility and brand last chosen on the Inventory screen (brand may be missing). */
export interface ScopeChoiceIds {
  facility: string;
  brand?: string;
}

const keyFor = (email: string) => `fulfillment.inventory-scope:${email.trim().toLowerCase()}`;

/**
 * Kept per user in localStorage so the next visit starts where the clerk left off, even after the
 * window was closed. Only ids: nothing here is secret, and the service still checks every access.
 */
export function rememberScope(
  storage: Storage | undefined,
  email: string,
  choice: ScopeChoiceIds | null,
): void {
  try {
    if (choice) storage?.setItem(keyFor(email), JSON.stringify(choice));
    else storage?.removeItem(keyFor(email));
  } catch {
    // Storage full or disabled: the choice is simply not remembered.
  }
}

export function recallScope(storage: Storage | undefined, email: string): ScopeChoiceIds | null {
  let value: unknown;
  try {
    const text = storage?.getItem(keyFor(email));
    if (!text) return null;
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { facility, brand } = value as Record<string, unknown>;
  if (typeof facility !== 'string' || facility === '') return null;
  return typeof brand === 'string' && brand !== '' ? { facility, brand } : { facility };
}

/** localStorage, or undefined where the page may not use it. */
export function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
