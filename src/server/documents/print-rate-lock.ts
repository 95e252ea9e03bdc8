import type { Db } from '../db/db';

/**
 * SQLite: nothing to do. Kysely runs SQLite on one connection, so two prints' transactions never
 * overlap: the second counts the first's row. The PostgreSQL twin (./print-rate-lock.postgres.ts)
 * has a pool, and several processes, and locks.
 */
export async function lockUserPrints(_trx: Db, _userId: string): Promise<void> {}
