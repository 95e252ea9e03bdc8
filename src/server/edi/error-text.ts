/**
 * The text of anything thrown, for the service log. Background loops report with it, so it must
 * never throw itself: a driver or a library may reject with null, a string or a plain object.
 */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    return String((error as { message: unknown }).message);
  }
  return String(error);
}
