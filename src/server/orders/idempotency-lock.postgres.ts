import { sql } from 'kysely';
import type { Db } from '../db/db';

/**
 * PostgreSQL twin of ./idempotency-lock.ts. Transactions on a pool overlap: without a lock, 50
 * parallel creates with one key all miss the stored answer and race for the picksheet's unique
 * index (one 201, the rest 409). A transaction-scoped advisory lock on (user, key) makes them
 * wait for the first to commit; under READ COMMITTED their lookup then sees its answer.
 */
export async function lockIdempotencyKey(trx: Db, userId: string, key: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${userId}\n${key}`}, 0))`.execute(trx);
}
