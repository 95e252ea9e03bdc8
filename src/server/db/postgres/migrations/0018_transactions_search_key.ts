import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the transaction search's one key (decision "Transaction search on PostgreSQL:
 * one stored, lower-cased key"). `search_key` is the five searched columns, lower-cased and
 * joined by U+001F (a control character no search term may hold, so a term never matches across
 * two columns), kept by PostgreSQL itself (GENERATED … STORED: every write, any trigger mode, the
 * central's copy). One trigram GIN index on it replaces the five-column one of 0015_baseline, and
 * the search matches it with a case-sensitive `LIKE lower(pattern)`, which is what ILIKE does,
 * but rechecks one stored text per match instead of lower-casing five columns of it.
 * Statistics target 1000: with the default 100, the planner's guess for a common term is 100 rows
 * instead of about 14,000 (the histogram is the only sample of a unique column).
 * At 1,000,000 log rows this rewrites the table and builds the index: minutes during which writes
 * to the log wait (docs/operations.md).
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE transactions ADD COLUMN search_key text GENERATED ALWAYS AS (
    lower(transaction_id) || E'\\x1f' || lower(coalesce(order_id, '')) || E'\\x1f'
      || lower(coalesce(correlation_id, '')) || E'\\x1f' || lower(coalesce(error_message, ''))
      || E'\\x1f' || lower(coalesce(request_url, ''))) STORED`.execute(db);
  await sql`ALTER TABLE transactions ALTER COLUMN search_key SET STATISTICS 1000`.execute(db);
  await sql`DROP INDEX transactions_search_trgm`.execute(db);
  await sql`CREATE INDEX transactions_search_key_trgm ON transactions USING gin (search_key gin_trgm_ops)`.execute(
    db,
  );
  await sql`ANALYZE transactions (search_key)`.execute(db);
}
