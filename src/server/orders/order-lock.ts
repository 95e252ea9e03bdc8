import type { Db } from '../db/db';

/**
 * SQLite: nothing to do, and false. Kysely runs SQLite on one connection, so two writes to one
 * order never overlap: what the transaction read stays true until it commits. The PostgreSQL twin
 * is ./order-lock.postgres.ts.
 */
export async function lockOrderRow(_trx: Db, _orderId: string): Promise<boolean> {
  return false;
}
