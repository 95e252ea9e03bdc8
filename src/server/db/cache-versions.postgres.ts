import { sql } from 'kysely';
import type { Db } from './db';

/** The caches whose invalidation PostgreSQL's `cache_versions` counters carry. */
export type CacheName = 'auth' | 'transactions' | 'orders';

/**
 * A cache's version on PostgreSQL: the sum of its counter's stripes (migration
 * 0017_process_coordination), which triggers move inside every writing transaction, whichever
 * process wrote. One small read per use, with no staleness: the counter becomes visible with the
 * commit of the rows it covers, so a read that starts after a commit sees both, and a cache
 * entry loaded after reading version v holds at least what v counts. Each read is its own
 * statement (READ COMMITTED): never a snapshot older than the caller's request.
 */
export async function postgresCacheVersion(db: Db, name: CacheName): Promise<number> {
  const { rows } = await sql<{
    v: number;
  }>`SELECT sum(${sql.ref(name)})::bigint AS v FROM cache_versions`.execute(db);
  return rows[0]?.v ?? 0;
}
