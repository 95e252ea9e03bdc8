import type { Db } from '../db/db';

/**
 * SQLite: nothing to do. Kysely runs SQLite on one connection, so two replacements of a brand's
 * price list never overlap. The PostgreSQL twin (./price-lock.postgres.ts) has a pool, and locks.
 */
export async function lockBrandPrices(_trx: Db, _brandId: string): Promise<void> {}
