import { sql, type Kysely } from 'kysely';

/*
 * Free-text search of the transaction log, SQLite edition: an FTS5 index with the trigram
 * tokenizer, so a case-insensitive substring of 3+ characters is found through the index at any
 * table size (never a scan). Everything engine-specific about it lives in this module; a
 * PostgreSQL twin would create GIN pg_trgm indexes on the same five columns and match them with
 * ILIKE, behind the same two exports used by the queries (createTransactionSearch,
 * searchMatchIds).
 *
 * The index is contentless (the text stays in `transactions` only). FTS5 keys rows by an integer
 * rowid, and `transactions` has a text primary key whose implicit rowid VACUUM may renumber, so
 * `transactions_search_ids` gives every transaction a stable integer of its own. Triggers keep
 * both in step with every write (advice attempts, order writes, seed imports, anything else).
 */

export const SEARCH_COLUMNS = [
  'transaction_id',
  'order_id',
  'correlation_id',
  'error_message',
  'request_url',
] as const;

const columns = SEARCH_COLUMNS.join(', ');
const values = (row: 'new' | 'old') => SEARCH_COLUMNS.map((c) => `${row}.${c}`).join(', ');
const idOf = (row: 'new' | 'old') =>
  `(SELECT id FROM transactions_search_ids WHERE transaction_id = ${row}.transaction_id)`;

/** Creates the index and its triggers and indexes the rows already there (migration 0008). */
export async function createTransactionSearch(db: Kysely<unknown>) {
  const statements = [
    `CREATE TABLE transactions_search_ids (
      id INTEGER PRIMARY KEY,
      transaction_id TEXT NOT NULL UNIQUE)`,
    `CREATE VIRTUAL TABLE transactions_search USING fts5(${columns},
      content='', contentless_delete=1, tokenize='trigram')`,
    `CREATE TRIGGER transactions_search_insert AFTER INSERT ON transactions BEGIN
      INSERT INTO transactions_search_ids (transaction_id) VALUES (new.transaction_id);
      INSERT INTO transactions_search (rowid, ${columns}) VALUES (${idOf('new')}, ${values('new')});
    END`,
    `CREATE TRIGGER transactions_search_delete AFTER DELETE ON transactions BEGIN
      DELETE FROM transactions_search WHERE rowid = ${idOf('old')};
      DELETE FROM transactions_search_ids WHERE transaction_id = old.transaction_id;
    END`,
    `CREATE TRIGGER transactions_search_update AFTER UPDATE OF ${columns} ON transactions BEGIN
      DELETE FROM transactions_search WHERE rowid = ${idOf('old')};
      UPDATE transactions_search_ids SET transaction_id = new.transaction_id
        WHERE transaction_id = old.transaction_id;
      INSERT INTO transactions_search (rowid, ${columns}) VALUES (${idOf('new')}, ${values('new')});
    END`,
    `INSERT INTO transactions_search_ids (transaction_id)
      SELECT transaction_id FROM transactions ORDER BY created_at, transaction_id`,
    `INSERT INTO transactions_search (rowid, ${columns})
      SELECT m.id, ${SEARCH_COLUMNS.map((c) => `t.${c}`).join(', ')}
      FROM transactions_search_ids m JOIN transactions t ON t.transaction_id = m.transaction_id`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** The term as one FTS5 phrase: with trigrams, a phrase matches wherever the text contains it. */
function phraseOf(term: string) {
  return `"${term.replace(/"/g, '""')}"`;
}

/**
 * The ids of the transactions whose searched columns contain `term` (3+ characters,
 * case-insensitive), as a one-column subquery `id` to drive a join from.
 */
export function searchMatchIds(term: string) {
  return sql<{ id: string }>`(SELECT m.transaction_id AS id
    FROM transactions_search s
    CROSS JOIN transactions_search_ids m ON m.id = s.rowid
    WHERE transactions_search MATCH ${phraseOf(term)})`;
}
