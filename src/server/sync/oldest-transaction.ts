import type { Db } from '../db/db';

/** The oldest open transaction, as the health reports it (../../shared/sync-health.ts). */
export interface OldestTransaction {
  age_seconds: number | null;
  watermark_lag_xids: number;
}

/**
 * SQLite: not applicable. The central writes through one connection, one transaction at a time,
 * and its pull has no watermark for a transaction to hold back. Twin: ./oldest-transaction.postgres.ts.
 */
export async function oldestTransaction(_db: Db): Promise<OldestTransaction | null> {
  return null;
}
