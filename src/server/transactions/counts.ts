import { sql, type Kysely } from 'kysely';

/*
 * Row counts of the transaction log by the columns its filters and visibility use, kept by
 * triggers, so `total_count` of a page costs a sum over a few hundred groups instead of a count
 * over up to millions of rows. Each transaction counts twice: once under `day = ''` (all time)
 * and once under its UTC calendar day (for created_from / created_to, which compare by day).
 * Null ids are stored as '' so they can be part of the key. Filters these groups cannot answer
 * (one transaction, one order, a PO number, a search) are counted on the rows themselves.
 * The triggers' SQL (upsert in a trigger) reads the same on PostgreSQL inside a trigger function.
 */

const KEY = [
  'day',
  'facility_key',
  'brand_key',
  'retailer_key',
  'action_type',
  'execution_status',
  'has_error',
] as const;

const groupOf = (row: 'new' | 'old', day: 'all' | 'day') =>
  [
    day === 'all' ? `''` : `substr(${row}.created_at, 1, 10)`,
    `coalesce(${row}.facility_id, '')`,
    `coalesce(${row}.brand_id, '')`,
    `coalesce(${row}.retailer_id, '')`,
    `${row}.action_type`,
    `${row}.execution_status`,
    `(${row}.error_message IS NOT NULL)`,
  ].join(', ');

const bump = (row: 'new' | 'old', delta: 1 | -1) =>
  `INSERT INTO transaction_counts (${KEY.join(', ')}, n)
    VALUES (${groupOf(row, 'all')}, ${delta}), (${groupOf(row, 'day')}, ${delta})
    ON CONFLICT (${KEY.join(', ')}) DO UPDATE SET n = n + excluded.n;`;

const COUNTED =
  'facility_id, brand_id, retailer_id, action_type, execution_status, error_message, created_at';

/** Creates the counts, their triggers, and counts the rows already there (migration 0008). */
export async function createTransactionCounts(db: Kysely<unknown>) {
  const statements = [
    `CREATE TABLE transaction_counts (
      day TEXT NOT NULL, facility_key TEXT NOT NULL, brand_key TEXT NOT NULL,
      retailer_key TEXT NOT NULL, action_type TEXT NOT NULL, execution_status TEXT NOT NULL,
      has_error INTEGER NOT NULL, n INTEGER NOT NULL,
      PRIMARY KEY (${KEY.join(', ')})) WITHOUT ROWID`,
    `CREATE TRIGGER transaction_counts_insert AFTER INSERT ON transactions BEGIN ${bump('new', 1)} END`,
    `CREATE TRIGGER transaction_counts_delete AFTER DELETE ON transactions BEGIN ${bump('old', -1)} END`,
    `CREATE TRIGGER transaction_counts_update AFTER UPDATE OF ${COUNTED} ON transactions BEGIN
      ${bump('old', -1)} ${bump('new', 1)} END`,
    ...(['all', 'day'] as const).map(
      (day) => `INSERT INTO transaction_counts (${KEY.join(', ')}, n)
        SELECT ${groupOf('new', day).replaceAll('new.', '')}, count(*) FROM transactions
        GROUP BY ${KEY.map((_, i) => i + 1).join(', ')}`,
    ),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
