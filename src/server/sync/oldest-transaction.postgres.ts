import { sql } from 'kysely';
import type { Db } from '../db/db';
import type { OldestTransaction } from './oldest-transaction';

/**
 * PostgreSQL: the oldest transaction holding a transaction id, anywhere on the server (ids are
 * server-wide, and any of them holds back `pg_snapshot_xmin`, the pull's watermark), and how many
 * ids the watermark trails the next one to be assigned. Without pg_read_all_stats the service's
 * role sees only its own sessions' transactions (docs/operations.md).
 */
export async function oldestTransaction(db: Db): Promise<OldestTransaction | null> {
  const { rows } = await sql<{ age: number | null; lag: number }>`
    SELECT
      (SELECT floor(extract(epoch FROM statement_timestamp() - min(xact_start)))::bigint
         FROM pg_stat_activity
        WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid()) AS age,
      (SELECT pg_snapshot_xmax(s)::text::bigint - pg_snapshot_xmin(s)::text::bigint
         FROM pg_current_snapshot() AS s) AS lag`.execute(db);
  const row = rows[0]!;
  return {
    age_seconds: row.age === null ? null : Number(row.age),
    watermark_lag_xids: Number(row.lag),
  };
}
