import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the orders' trigram index (orders_code_search_trgm, 0015_baseline) takes each
 * new entry into its tree at once (`fastupdate = off`) instead of a pending list, and the list it
 * has is merged now. Every search scans the whole pending list (up to gin_pending_list_limit,
 * 4 MB) and the planner prices that in: at 50,000 orders and about 300 pending pages it chose a
 * sequential scan of the orders with two ILIKEs for the search's orders half, 28 ms for every
 * search, where the index answers in 0.05 ms (decision "PostgreSQL search: no pending list on
 * the orders' trigram index"). Two short codes per order make the direct insert cheap.
 * Named to sort after every 0018 a central may have run: Kysely refuses a new migration whose name
 * comes before the last one applied.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER INDEX orders_code_search_trgm SET (fastupdate = off)`.execute(db);
  await sql`SELECT gin_clean_pending_list('orders_code_search_trgm'::regclass)`.execute(db);
}
