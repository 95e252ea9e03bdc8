import { sql } from 'kysely';
import type { Db } from '../db/db';

/**
 * PostgreSQL twin of ./print-rate-lock.ts. Transactions on a pool, and on several processes,
 * overlap: without a lock, parallel prints by one user all count the same 29 rows and all insert.
 * A transaction-scoped advisory lock on the user makes them take turns; under READ COMMITTED each
 * count then sees the rows of the turns before it.
 */
export async function lockUserPrints(trx: Db, userId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`print-rate\n${userId}`}, 0))`.execute(
    trx,
  );
}
