import { sql, type Kysely } from 'kysely';

/*
 * Free-text search of the transaction log, SQLite edition: an FTS5 index with the trigram
 * tokenizer, so a case-insensitive substring of 3+ characters is found through the index at any
 * table size (never a scan). Everything engine-specific about it lives in this module; a
 * PostgreSQL twin would create GIN pg_trgm indexes on the same five columns and match them with
 * ILIKE (and on orders' picksheet_code and po_number), behind the same exports used by the
 * queries (createTransactionSearch, createOrderCodeSearch, searchPhrase, searchMatchIds).
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

/**
 * Copies of every column a search can filter or sort on, kept beside the stable id: a broad term
 * matches thousands of rows, and reading each from `transactions` (by its text key, all over a
 * large file) to check visibility and sort cost ~90 ms at 14,500 matches. With the keys here, the
 * visible count and the page's ids come from this table alone (read in id order, which follows
 * created_at); only the page's rows are read from `transactions`.
 */
export const SEARCH_KEY_COLUMNS = [
  'created_at',
  'updated_at',
  'facility_id',
  'brand_id',
  'retailer_id',
  'order_id',
  'action_type',
  'execution_status',
] as const;

const columns = SEARCH_COLUMNS.join(', ');
const values = (row: 'new' | 'old') => SEARCH_COLUMNS.map((c) => `${row}.${c}`).join(', ');
const idOf = (row: 'new' | 'old') =>
  `(SELECT id FROM transactions_search_ids WHERE transaction_id = ${row}.transaction_id)`;
const keyColumns = ['transaction_id', ...SEARCH_KEY_COLUMNS, 'has_error'].join(', ');
const keyValues = (row: string) =>
  [
    ...['transaction_id', ...SEARCH_KEY_COLUMNS].map((c) => `${row}.${c}`),
    `${row}.error_message IS NOT NULL`,
  ].join(', ');
/** True when an update changed a searched column (else the index entry stays as it is). */
const searchedChanged = SEARCH_COLUMNS.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ');
const watched = [...new Set<string>([...SEARCH_COLUMNS, ...SEARCH_KEY_COLUMNS])].join(', ');

/** Creates the index and its triggers and indexes the rows already there (migration 0008). */
export async function createTransactionSearch(db: Kysely<unknown>) {
  const statements = [
    `CREATE TABLE transactions_search_ids (
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
    `CREATE VIRTUAL TABLE transactions_search USING fts5(${columns},
      content='', contentless_delete=1, tokenize='trigram')`,
    `CREATE TRIGGER transactions_search_insert AFTER INSERT ON transactions BEGIN
      INSERT INTO transactions_search_ids (${keyColumns}) VALUES (${keyValues('new')});
      INSERT INTO transactions_search (rowid, ${columns}) VALUES (${idOf('new')}, ${values('new')});
    END`,
    `CREATE TRIGGER transactions_search_delete AFTER DELETE ON transactions BEGIN
      DELETE FROM transactions_search WHERE rowid = ${idOf('old')};
      DELETE FROM transactions_search_ids WHERE transaction_id = old.transaction_id;
    END`,
    // Keys follow every change; the index entry is rewritten only when searched text changed.
    `CREATE TRIGGER transactions_search_update AFTER UPDATE OF ${watched} ON transactions BEGIN
      DELETE FROM transactions_search WHERE rowid = ${idOf('old')} AND (${searchedChanged});
      UPDATE transactions_search_ids SET (${keyColumns}) = (SELECT ${keyValues('new')})
        WHERE transaction_id = old.transaction_id;
      INSERT INTO transactions_search (rowid, ${columns})
        SELECT ${idOf('new')}, ${values('new')} WHERE ${searchedChanged};
    END`,
    // Ids in created_at order: a match list (in id order) reads this table front to back.
    `INSERT INTO transactions_search_ids (${keyColumns})
      SELECT ${keyValues('t')} FROM transactions t ORDER BY t.created_at, t.transaction_id`,
    `INSERT INTO transactions_search (rowid, ${columns})
      SELECT m.id, ${SEARCH_COLUMNS.map((c) => `t.${c}`).join(', ')}
      FROM transactions_search_ids m JOIN transactions t ON t.transaction_id = m.transaction_id`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** The term as one FTS5 phrase: with trigrams, a phrase matches wherever the text contains it. */
export function searchPhrase(term: string) {
  return `"${term.replace(/"/g, '""')}"`;
}

/**
 * The stable ids of the transactions whose searched columns contain the term of `phrase`
 * (searchPhrase of a term of 3+ characters, case-insensitive), or whose order's picksheet code
 * or PO number contains it, as a one-column subquery `id` to drive a join on
 * transactions_search_ids. The order codes have a small trigram index of their own
 * (createOrderCodeSearch) rather than copies in the transactions' index, so renaming an order
 * rewrites one entry, not one per transaction; its transactions are reached through
 * transactions_order.
 */
export function searchMatchIds(phrase: string) {
  return sql<{ id: number }>`(SELECT rowid AS id FROM transactions_search
    WHERE transactions_search MATCH ${phrase}
    UNION
    SELECT m.id FROM orders_code_search hit
      JOIN orders_search_ids os ON os.id = hit.rowid
      JOIN transactions tx ON tx.order_id = os.order_id
      JOIN transactions_search_ids m ON m.transaction_id = tx.transaction_id
      WHERE orders_code_search MATCH ${phrase})`;
}

const ORDER_CODE_COLUMNS = 'picksheet_code, po_number';
const orderIdOf = (row: 'new' | 'old') =>
  `(SELECT id FROM orders_search_ids WHERE order_id = ${row}.id)`;

/**
 * A trigram index of every order's picksheet code and PO number (migration 0013), contentless
 * like the transactions' one, with `orders_search_ids` giving each order a stable integer (the
 * orders table's own rowid may be renumbered by VACUUM). Triggers keep it in step with every
 * write to orders.
 */
export async function createOrderCodeSearch(db: Kysely<unknown>) {
  const statements = [
    `CREATE TABLE orders_search_ids (id INTEGER PRIMARY KEY, order_id TEXT NOT NULL UNIQUE)`,
    `CREATE VIRTUAL TABLE orders_code_search USING fts5(${ORDER_CODE_COLUMNS},
      content='', contentless_delete=1, tokenize='trigram')`,
    `CREATE TRIGGER orders_code_search_insert AFTER INSERT ON orders BEGIN
      INSERT INTO orders_search_ids (order_id) VALUES (new.id);
      INSERT INTO orders_code_search (rowid, ${ORDER_CODE_COLUMNS})
        VALUES (${orderIdOf('new')}, new.picksheet_code, new.po_number);
    END`,
    `CREATE TRIGGER orders_code_search_delete AFTER DELETE ON orders BEGIN
      DELETE FROM orders_code_search WHERE rowid = ${orderIdOf('old')};
      DELETE FROM orders_search_ids WHERE order_id = old.id;
    END`,
    `CREATE TRIGGER orders_code_search_update AFTER UPDATE OF id, picksheet_code, po_number
      ON orders WHEN old.id IS NOT new.id OR old.picksheet_code IS NOT new.picksheet_code
        OR old.po_number IS NOT new.po_number BEGIN
      DELETE FROM orders_code_search WHERE rowid = ${orderIdOf('old')};
      UPDATE orders_search_ids SET order_id = new.id WHERE order_id = old.id;
      INSERT INTO orders_code_search (rowid, ${ORDER_CODE_COLUMNS})
        VALUES (${orderIdOf('new')}, new.picksheet_code, new.po_number);
    END`,
    `INSERT INTO orders_search_ids (order_id) SELECT id FROM orders ORDER BY created_at, id`,
    `INSERT INTO orders_code_search (rowid, ${ORDER_CODE_COLUMNS})
      SELECT m.id, o.picksheet_code, o.po_number
      FROM orders_search_ids m JOIN orders o ON o.id = m.order_id`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
