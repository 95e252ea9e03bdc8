import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/db';
import { allTransactions, type LogRowExpressions, type LogRows } from './log-rows';

/*
 * PostgreSQL twin of ./search-queries.ts: the same case-insensitive substring search of 3+
 * characters, as ILIKE on the pg_trgm GIN indexes of migration 0015_baseline
 * (transactions_search_trgm on the five searched columns, orders_code_search_trgm on the order's
 * picksheet code and PO number), so the matches are found through the indexes, never by a scan.
 * There is no side table: the matches are transactions rows themselves.
 */

/** The term as an ILIKE pattern matching wherever the text contains it (`%`, `_`, `\` literal). */
export function searchPhrase(term: string) {
  return `%${term.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * The ids of the transactions whose searched columns match `pattern`, or whose order's codes do.
 * A UNION of two index-driven halves rather than one OR over both tables, which PostgreSQL could
 * only answer by scanning the log and probing the orders for each row.
 */
function searchMatchIds(pattern: string) {
  return sql<{ id: string }>`(SELECT x.transaction_id AS id FROM transactions x
    WHERE x.transaction_id ILIKE ${pattern} OR x.order_id ILIKE ${pattern}
      OR x.correlation_id ILIKE ${pattern} OR x.error_message ILIKE ${pattern}
      OR x.request_url ILIKE ${pattern}
    UNION
    SELECT x.transaction_id FROM orders o
      JOIN transactions x ON x.order_id = o.id
      WHERE o.picksheet_code ILIKE ${pattern} OR o.po_number ILIKE ${pattern})`;
}

/** A search's matches as rows of `transactions` (the list's filters apply to them unchanged). */
export function searchedTransactions(db: Db, pattern: string): LogRows {
  return allTransactions(db).where(
    sql<SqlBool>`${sql.ref('t.transaction_id')} IN ${searchMatchIds(pattern)}`,
  );
}

/** The has_error filter over searchedTransactions' rows: they are the log's own rows. */
export function searchedHasError(eb: LogRowExpressions, hasError: boolean) {
  return eb('t.error_message', hasError ? 'is not' : 'is', null);
}
