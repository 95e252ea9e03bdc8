/**
 * PostgreSQL ended the transaction to resolve a conflict with another one: a deadlock (40P01) or
 * a serialization failure (40001). It was rolled back whole, so running it again is safe and
 * usually succeeds.
 */
export function endedByConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}
