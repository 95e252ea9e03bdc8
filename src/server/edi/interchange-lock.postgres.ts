import { sql } from 'kysely';
import type { Db } from '../db/db';
import type { InterchangeKey } from './interchange-lock';

/**
 * PostgreSQL twin of ./interchange-lock.ts. Transactions on a pool overlap: without a lock, 50
 * parallel posts of one interchange all miss the stored run, make their orders and race for
 * edi_interchanges' unique index (or for another table's first); parallel reprocess calls would
 * each run the sets again. A transaction-scoped advisory lock on (sender, ISA13) makes them wait
 * for the first to commit; under READ COMMITTED their reads then see its run.
 */
export async function lockInterchange(trx: Db, key: InterchangeKey): Promise<void> {
  const text = `edi-interchange\n${key.qualifier}\n${key.senderId}\n${key.control}`;
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${text}, 0))`.execute(trx);
}
