import { sql, type Expression } from 'kysely';
import type { Db } from '../db/db';
import type { LogRowExpressions, LogRows } from './log-rows';

/*
 * Free-text search of the transaction log, SQLite edition: an FTS5 index with the trigram
 * tokenizer, so a case-insensitive substring of 3+ characters is found through the index at any
 * table size (never a scan). Everything engine-specific about it lives in this module; its
 * PostgreSQL twin (./search-queries.postgres.ts) matches GIN pg_trgm indexes on the same five
 * columns (and on orders' picksheet_code and po_number) with ILIKE, behind the same exports.
 *
 * The index is contentless (the text stays in `transactions` only). FTS5 keys rows by an integer
 * rowid, and `transactions` has a text primary key whose implicit rowid VACUUM may renumber, so
 * `transactions_search_ids` gives every transaction a stable integer of its own. Triggers keep
 * both in step with every write (advice attempts, order writes, seed imports, anything else).
 * The index, its ids and its triggers are created by migrations 0008_transactions_search and
 * 0013_order_code_search (./migrations); a change to them is a new migration.
 */

/** The term as one FTS5 phrase: with trigrams, a phrase matches wherever the text contains it. */
export function searchPhrase(term: string) {
  return `"${term.replace(/"/g, '""')}"`;
}

/**
 * The stable ids of the transactions whose searched columns contain the term of `phrase`
 * (searchPhrase of a term of 3+ characters, case-insensitive), or whose order's picksheet code
 * or PO number contains it, as a one-column subquery `id` to drive a join on
 * transactions_search_ids. The order codes have a small trigram index of their own
 * (migration 0013_order_code_search) rather than copies in the transactions' index, so renaming an order
 * rewrites one entry, not one per transaction; its transactions are reached through
 * transactions_order.
 */
function searchMatchIds(phrase: string) {
  return sql<{ id: number }>`(SELECT rowid AS id FROM transactions_search
    WHERE transactions_search MATCH ${phrase}
    UNION
    SELECT m.id FROM orders_code_search hit
      JOIN orders_search_ids os ON os.id = hit.rowid
      JOIN transactions tx ON tx.order_id = os.order_id
      JOIN transactions_search_ids m ON m.transaction_id = tx.transaction_id
      WHERE orders_code_search MATCH ${phrase})`;
}

/**
 * A search's matches as rows of transactions_search_ids, which carries the same-named copies of
 * every column filtered or sorted on (and has_error for error_message), so the list's filters
 * apply to it unchanged; only the page's rows are then read from `transactions`.
 */
export function searchedTransactions(db: Db, phrase: string): LogRows {
  return (
    db
      .selectFrom(searchMatchIds(phrase).as('hit'))
      // CROSS JOIN keeps the index's matches as the outer loop (SQLite does not reorder it).
      .crossJoin('transactions_search_ids as t')
      .whereRef('t.id', '=', sql.ref('hit.id')) as unknown as LogRows
  );
}

/** The has_error filter over searchedTransactions' rows (they carry has_error, not the text). */
export function searchedHasError(eb: LogRowExpressions, hasError: boolean) {
  return eb(sql.ref('t.has_error'), '=', hasError ? 1 : 0);
}

/** A sort key of a searched page: SQLite compares text byte by byte already (BINARY). */
export function searchSortKey(column: string): Expression<string> {
  return sql.ref<string>(column);
}

/**
 * A searched page materializes its matches' keys (from transactions_search_ids) and counts them
 * there; the window count was measured on PostgreSQL only.
 */
export const countsMatchesByWindow = false;
