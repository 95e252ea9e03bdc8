import { sql } from 'kysely';
import type { Db } from '../db/db';
import type { TransactionsTable } from '../db/schema';
import type { LogRowExpressions, LogRows } from './log-rows';

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

/** The log row `x` matches `pattern` on one of the five indexed columns. */
const logRowMatches = (pattern: string) =>
  sql<boolean>`(x.transaction_id ILIKE ${pattern} OR x.order_id ILIKE ${pattern}
    OR x.correlation_id ILIKE ${pattern} OR x.error_message ILIKE ${pattern}
    OR x.request_url ILIKE ${pattern})`;

/**
 * A search's matches as rows of `transactions` (the list's filters apply to them unchanged): the
 * rows matching on their own columns (a BitmapOr over transactions_search_trgm), then, UNION ALL,
 * the other rows of the orders matching on their codes (orders_code_search_trgm). Two
 * index-driven halves rather than one OR over both tables, which PostgreSQL could only answer by
 * scanning the log; and whole rows rather than ids, so no self-join by id reads the log again.
 * The filters are pushed into both halves.
 */
export function searchedTransactions(db: Db, pattern: string): LogRows {
  return db.selectFrom(
    sql<TransactionsTable>`(SELECT x.* FROM transactions x WHERE ${logRowMatches(pattern)}
      UNION ALL
      SELECT x.* FROM orders o JOIN transactions x ON x.order_id = o.id
        WHERE (o.picksheet_code ILIKE ${pattern} OR o.po_number ILIKE ${pattern})
          AND NOT coalesce(${logRowMatches(pattern)}, false))`.as('t'),
  ) as unknown as LogRows;
}
/** The has_error filter over searchedTransactions' rows: they are the log's own rows. */
export function searchedHasError(eb: LogRowExpressions, hasError: boolean) {
  return eb('t.error_message', hasError ? 'is not' : 'is', null);
}
