import { sql, type Kysely } from 'kysely';

/**
 * The transaction log's search (an FTS5 trigram index) and its row counts by filter, each kept by
 * triggers, with the rows already there indexed and counted.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 * The SQL is what transactions/search-queries.ts and counts.ts emitted when this was written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    // Each sort order with its tie-breaker, so a page is read in index order, never sorted.
    sql`CREATE INDEX transactions_created_id ON transactions (created_at, transaction_id)`,
    sql`CREATE INDEX transactions_updated_id ON transactions (updated_at, transaction_id)`,
    sql`CREATE INDEX transactions_status_created ON transactions (execution_status, created_at, transaction_id)`,
    sql`CREATE INDEX transactions_action_created ON transactions (action_type, created_at, transaction_id)`,
    // Narrow filters (one retailer, one brand, one facility) read only their own rows.
    sql`CREATE INDEX transactions_facility_created ON transactions (facility_id, created_at)`,
    sql`CREATE INDEX transactions_brand_created ON transactions (brand_id, created_at)`,
    sql`CREATE INDEX transactions_retailer_created ON transactions (retailer_id, created_at)`,
    // Superseded by transactions_created_id (same leading column).
    sql`DROP INDEX IF EXISTS transactions_created`,

    /*
     * Free-text search, SQLite edition: an FTS5 index with the trigram tokenizer, so a
     * case-insensitive substring of 3+ characters is found through the index at any table size.
     * The index is contentless (the text stays in `transactions` only). FTS5 keys rows by an
     * integer rowid, and `transactions` has a text primary key whose implicit rowid VACUUM may
     * renumber, so `transactions_search_ids` gives every transaction a stable integer of its own,
     * beside copies of every column a search filters or sorts on (the visible count and a page's
     * ids come from this table alone). Triggers keep both in step with every write.
     */
    sql`CREATE TABLE transactions_search_ids (
      id INTEGER PRIMARY KEY,
      transaction_id TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      facility_id TEXT,
      brand_id TEXT,
      retailer_id TEXT,
      order_id TEXT,
      action_type TEXT NOT NULL,
      execution_status TEXT NOT NULL,
      has_error INTEGER NOT NULL)`,
    sql`CREATE VIRTUAL TABLE transactions_search USING fts5(transaction_id, order_id, correlation_id, error_message, request_url,
      content='', contentless_delete=1, tokenize='trigram')`,
    sql`CREATE TRIGGER transactions_search_insert AFTER INSERT ON transactions BEGIN
      INSERT INTO transactions_search_ids (transaction_id, created_at, updated_at, facility_id, brand_id, retailer_id, order_id, action_type, execution_status, has_error) VALUES (new.transaction_id, new.created_at, new.updated_at, new.facility_id, new.brand_id, new.retailer_id, new.order_id, new.action_type, new.execution_status, new.error_message IS NOT NULL);
      INSERT INTO transactions_search (rowid, transaction_id, order_id, correlation_id, error_message, request_url) VALUES ((SELECT id FROM transactions_search_ids WHERE transaction_id = new.transaction_id), new.transaction_id, new.order_id, new.correlation_id, new.error_message, new.request_url);
    END`,
    sql`CREATE TRIGGER transactions_search_delete AFTER DELETE ON transactions BEGIN
      DELETE FROM transactions_search WHERE rowid = (SELECT id FROM transactions_search_ids WHERE transaction_id = old.transaction_id);
      DELETE FROM transactions_search_ids WHERE transaction_id = old.transaction_id;
    END`,
    // Keys follow every change; the index entry is rewritten only when searched text changed.
    sql`CREATE TRIGGER transactions_search_update AFTER UPDATE OF transaction_id, order_id, correlation_id, error_message, request_url, created_at, updated_at, facility_id, brand_id, retailer_id, action_type, execution_status ON transactions BEGIN
      DELETE FROM transactions_search WHERE rowid = (SELECT id FROM transactions_search_ids WHERE transaction_id = old.transaction_id) AND (old.transaction_id IS NOT new.transaction_id OR old.order_id IS NOT new.order_id OR old.correlation_id IS NOT new.correlation_id OR old.error_message IS NOT new.error_message OR old.request_url IS NOT new.request_url);
      UPDATE transactions_search_ids SET (transaction_id, created_at, updated_at, facility_id, brand_id, retailer_id, order_id, action_type, execution_status, has_error) = (SELECT new.transaction_id, new.created_at, new.updated_at, new.facility_id, new.brand_id, new.retailer_id, new.order_id, new.action_type, new.execution_status, new.error_message IS NOT NULL)
        WHERE transaction_id = old.transaction_id;
      INSERT INTO transactions_search (rowid, transaction_id, order_id, correlation_id, error_message, request_url)
        SELECT (SELECT id FROM transactions_search_ids WHERE transaction_id = new.transaction_id), new.transaction_id, new.order_id, new.correlation_id, new.error_message, new.request_url WHERE old.transaction_id IS NOT new.transaction_id OR old.order_id IS NOT new.order_id OR old.correlation_id IS NOT new.correlation_id OR old.error_message IS NOT new.error_message OR old.request_url IS NOT new.request_url;
    END`,
    // Ids in created_at order: a match list (in id order) reads this table front to back.
    sql`INSERT INTO transactions_search_ids (transaction_id, created_at, updated_at, facility_id, brand_id, retailer_id, order_id, action_type, execution_status, has_error)
      SELECT t.transaction_id, t.created_at, t.updated_at, t.facility_id, t.brand_id, t.retailer_id, t.order_id, t.action_type, t.execution_status, t.error_message IS NOT NULL FROM transactions t ORDER BY t.created_at, t.transaction_id`,
    sql`INSERT INTO transactions_search (rowid, transaction_id, order_id, correlation_id, error_message, request_url)
      SELECT m.id, t.transaction_id, t.order_id, t.correlation_id, t.error_message, t.request_url
      FROM transactions_search_ids m JOIN transactions t ON t.transaction_id = m.transaction_id`,

    /*
     * Row counts by the columns the filters and visibility use, so `total_count` of a page is a
     * sum over a few hundred groups. Each transaction counts twice: under `day = ''` (all time)
     * and under its UTC calendar day (for created_from / created_to). Null ids are stored as ''
     * so they can be part of the key.
     */
    sql`CREATE TABLE transaction_counts (
      day TEXT NOT NULL, facility_key TEXT NOT NULL, brand_key TEXT NOT NULL,
      retailer_key TEXT NOT NULL, action_type TEXT NOT NULL, execution_status TEXT NOT NULL,
      has_error INTEGER NOT NULL, n INTEGER NOT NULL,
      PRIMARY KEY (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error)) WITHOUT ROWID`,
    sql`CREATE TRIGGER transaction_counts_insert AFTER INSERT ON transactions BEGIN INSERT INTO transaction_counts (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error, n)
    VALUES ('', coalesce(new.facility_id, ''), coalesce(new.brand_id, ''), coalesce(new.retailer_id, ''), new.action_type, new.execution_status, (new.error_message IS NOT NULL), 1), (substr(new.created_at, 1, 10), coalesce(new.facility_id, ''), coalesce(new.brand_id, ''), coalesce(new.retailer_id, ''), new.action_type, new.execution_status, (new.error_message IS NOT NULL), 1)
    ON CONFLICT (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error) DO UPDATE SET n = n + excluded.n; END`,
    sql`CREATE TRIGGER transaction_counts_delete AFTER DELETE ON transactions BEGIN INSERT INTO transaction_counts (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error, n)
    VALUES ('', coalesce(old.facility_id, ''), coalesce(old.brand_id, ''), coalesce(old.retailer_id, ''), old.action_type, old.execution_status, (old.error_message IS NOT NULL), -1), (substr(old.created_at, 1, 10), coalesce(old.facility_id, ''), coalesce(old.brand_id, ''), coalesce(old.retailer_id, ''), old.action_type, old.execution_status, (old.error_message IS NOT NULL), -1)
    ON CONFLICT (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error) DO UPDATE SET n = n + excluded.n; END`,
    sql`CREATE TRIGGER transaction_counts_update AFTER UPDATE OF facility_id, brand_id, retailer_id, action_type, execution_status, error_message, created_at ON transactions BEGIN
      INSERT INTO transaction_counts (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error, n)
    VALUES ('', coalesce(old.facility_id, ''), coalesce(old.brand_id, ''), coalesce(old.retailer_id, ''), old.action_type, old.execution_status, (old.error_message IS NOT NULL), -1), (substr(old.created_at, 1, 10), coalesce(old.facility_id, ''), coalesce(old.brand_id, ''), coalesce(old.retailer_id, ''), old.action_type, old.execution_status, (old.error_message IS NOT NULL), -1)
    ON CONFLICT (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error) DO UPDATE SET n = n + excluded.n; INSERT INTO transaction_counts (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error, n)
    VALUES ('', coalesce(new.facility_id, ''), coalesce(new.brand_id, ''), coalesce(new.retailer_id, ''), new.action_type, new.execution_status, (new.error_message IS NOT NULL), 1), (substr(new.created_at, 1, 10), coalesce(new.facility_id, ''), coalesce(new.brand_id, ''), coalesce(new.retailer_id, ''), new.action_type, new.execution_status, (new.error_message IS NOT NULL), 1)
    ON CONFLICT (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error) DO UPDATE SET n = n + excluded.n; END`,
    sql`INSERT INTO transaction_counts (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error, n)
        SELECT '', coalesce(facility_id, ''), coalesce(brand_id, ''), coalesce(retailer_id, ''), action_type, execution_status, (error_message IS NOT NULL), count(*) FROM transactions
        GROUP BY 1, 2, 3, 4, 5, 6, 7`,
    sql`INSERT INTO transaction_counts (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error, n)
        SELECT substr(created_at, 1, 10), coalesce(facility_id, ''), coalesce(brand_id, ''), coalesce(retailer_id, ''), action_type, execution_status, (error_message IS NOT NULL), count(*) FROM transactions
        GROUP BY 1, 2, 3, 4, 5, 6, 7`,
  ];
  for (const statement of statements) await statement.execute(db);
}
