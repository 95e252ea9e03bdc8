import { sql, type Expression } from 'kysely';
import type { Db } from '../db/db';
import type { TransactionsTable } from '../db/schema';
import type { LogRowExpressions, LogRows } from './log-rows';

/*
 * PostgreSQL twin of ./search-queries.ts: the same case-insensitive substring search of 3+
 * characters, through pg_trgm GIN indexes, so the matches are found through the indexes, never
 * by a scan. A log row is matched on `search_key` (migration 0018_transactions_search_key): its
 * five searched columns lower-cased and joined by U+001F, a column PostgreSQL computes and stores
 * with every write, indexed by transactions_search_key_trgm. An order's picksheet code and PO
 * number are matched with ILIKE on orders_code_search_trgm (0015_baseline; without a GIN pending
 * list since 0018_trgm_orders_fastupdate, for with one the planner chose to scan every order).
 * There is no side table: the matches are transactions rows themselves.
 */

/** The term as an ILIKE pattern matching wherever the text contains it (`%`, `_`, `\` literal). */
export function searchPhrase(term: string) {
  return `%${term.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * The log row `x` contains the term of `pattern` in one of its five searched columns, whatever
 * the case. `x ILIKE p` is `lower(x) LIKE lower(p)` in a UTF-8 database, and lower() works a
 * character at a time, so this is the OR of the five ILIKEs; a term never holds U+001F (the
 * query schema refuses control characters), so it cannot match across two columns. The recheck
 * of each index match reads one stored text and lower-cases nothing of the row.
 */
const logRowMatches = (pattern: string) => sql<boolean>`x.search_key LIKE lower(${pattern})`;

/**
 * A search's matches as rows of `transactions` (the list's filters apply to them unchanged): the
 * rows matching on their own columns (transactions_search_key_trgm), then, UNION ALL, the other
 * rows of the orders matching on their codes (orders_code_search_trgm). Two index-driven halves
 * rather than one OR over both tables, which PostgreSQL could only answer by scanning the log;
 * and whole rows rather than ids, so no self-join by id reads the log again. The filters are
 * pushed into both halves.
 */
export function searchedTransactions(db: Db, pattern: string): LogRows {
  return db.selectFrom(
    sql<TransactionsTable>`(SELECT x.* FROM transactions x WHERE ${logRowMatches(pattern)}
      UNION ALL
      SELECT x.* FROM orders o JOIN transactions x ON x.order_id = o.id
        WHERE (o.picksheet_code ILIKE ${pattern} OR o.po_number ILIKE ${pattern})
          AND NOT ${logRowMatches(pattern)})`.as('t'),
  ) as unknown as LogRows;
}

/** The has_error filter over searchedTransactions' rows: they are the log's own rows. */
export function searchedHasError(eb: LogRowExpressions, hasError: boolean) {
  return eb('t.error_message', hasError ? 'is not' : 'is', null);
}

/**
 * A sort key of a searched page, compared byte by byte (COLLATE "C"): the matches are sorted in
 * memory, where the database's own collation (C.UTF-8, docs/operations.md) compares through
 * strcoll and cost about 3 ms per 14,000 matches; "C" is code point order, which is SQLite's
 * (BINARY) and C.UTF-8's alike.
 */
export function searchSortKey(column: string): Expression<string> {
  return sql<string>`${sql.ref(column)} COLLATE "C"`;
}

/**
 * A searched page counts its matches with `count(*) OVER ()` as they go into the page's top-N
 * sort, rather than materializing their keys in a CTE and counting those: one scan either way,
 * and at 1M rows the common term cost about 2 ms less server CPU of ~38 (docs/benchmarks.md).
 */
export const countsMatchesByWindow = true;
