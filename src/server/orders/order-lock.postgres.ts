import { sql } from 'kysely';
import type { Db } from '../db/db';

/**
 * PostgreSQL twin of ./order-lock.ts: takes the order's row lock until the transaction ends and
 * returns true, so the caller reads the order again. Without it, 50 parallel moves of one order
 * each read it at its old facility; the first commits, and the others find their own order at the
 * destination and refuse its picksheet code as taken (409) instead of logging a SKIP.
 */
export async function lockOrderRow(trx: Db, orderId: string): Promise<boolean> {
  await sql`SELECT 1 FROM orders WHERE id = ${orderId} FOR UPDATE`.execute(trx);
  return true;
}
