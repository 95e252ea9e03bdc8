import { sql } from 'kysely';
import type { Db } from '../db/db';

/**
 * PostgreSQL twin of ./price-lock.ts. A replacement deletes a brand's prices and inserts the new
 * list; on a pool, parallel replacements each delete what they see and then insert the same keys
 * (a unique violation) or wait on each other's rows (a deadlock). A transaction-scoped advisory
 * lock per brand makes them take turns, each replacing the last one's whole list. No row lock on
 * the brand: that would hold up every order insert of the brand (its foreign key check).
 */
export async function lockBrandPrices(trx: Db, brandId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`billing-prices\n${brandId}`}, 0))`.execute(
    trx,
  );
}
