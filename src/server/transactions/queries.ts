import { engineOf } from '../db/engine';
import {
  sql,
  type CompiledQuery,
  type Expression,
  type ExpressionBuilder,
  type SqlBool,
} from 'kysely';
import type { TransactionSortField } from '../../shared/transactions';
import { dayAfter } from '../../shared/calendar-day';
import type { Db } from '../db/db';
import type { TransactionsTable } from '../db/schema';
import type { TransactionCountsTable } from './tables';
import { allTransactions, type LogRowExpressions } from './log-rows';
import * as sqliteSearch from './search-queries';
import * as postgresSearch from './search-queries.postgres';
import { inCountLockOrder } from './count-lock-order';

/** The engine's twin of the free-text search (./search-queries.ts). */
const searchOf = (db: Db) => (engineOf(db) === 'postgres' ? postgresSearch : sqliteSearch);

/** What a user may see of the log (DESIGN.md, Visibility; docs/decisions.md, Transactions). */
export interface TransactionScope {
  /** Facilities the user sees: their rows are visible. */
  facilityIds: readonly string[];
  /** The credentials' brand: only its rows are visible. */
  userBrandId: string | null;
  /** Brands working at those facilities (the user's own only, when it has one): their rows without a facility are visible. */
  brandIds: readonly string[];
}

export interface TransactionFilter {
  scope: TransactionScope;
  transactionId?: string;
  orderId?: string;
  poNumber?: string;
  executionStatus?: TransactionsTable['execution_status'];
  actionType?: string;
  retailerIds?: readonly string[];
  brandIds?: readonly string[];
  facilityIds?: readonly string[];
  hasError?: boolean;
  /** UTC calendar days, both included. */
  createdFrom?: string;
  createdTo?: string;
  /** 3+ characters, matched through the search index. */
  search?: string;
}

export interface TransactionSort {
  field: TransactionSortField;
  direction: 'asc' | 'desc';
}

/** Every column of a log row, in the table's order (the log's readers and the advice path's bulk insert). */
export const TRANSACTION_COLUMNS = [
  'transaction_id',
  'action_type',
  'action_type_label',
  'brand_id',
  'retailer_id',
  'facility_id',
  'order_id',
  'carton_id',
  'load_id',
  'correlation_id',
  'duration_ms',
  'error_message',
  'execution_status',
  'request_method',
  'request_url',
  'request_payload',
  'response_body',
  'response_status',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof TransactionsTable)[];

/** True when nothing can match: the user sees no facility, or a list filter is empty. */
function matchesNothing(filter: TransactionFilter) {
  return filter.scope.facilityIds.length === 0;
}

/** Rows the user sees: at its facilities (of its brand), or brand-level rows of its brands. */
function visible(eb: LogRowExpressions, scope: TransactionScope): Expression<SqlBool> {
  const atFacility = [eb('t.facility_id', 'in', [...scope.facilityIds])];
  if (scope.userBrandId !== null) atFacility.push(eb('t.brand_id', '=', scope.userBrandId));
  const branches = [eb.and(atFacility)];
  if (scope.brandIds.length > 0) {
    branches.push(
      eb.and([eb('t.facility_id', 'is', null), eb('t.brand_id', 'in', [...scope.brandIds])]),
    );
  }
  return eb.or(branches);
}

/** The rows of the filter (driven by the search index when there is a search). */
function filteredTransactions(db: Db, filter: StatementFilter) {
  const search = searchOf(db);
  let query = filter.searchPhrase
    ? search.searchedTransactions(db, filter.searchPhrase)
    : allTransactions(db);
  query = query.where((eb) => visible(eb as unknown as LogRowExpressions, filter.scope));
  if (filter.transactionId) query = query.where('t.transaction_id', '=', filter.transactionId);
  if (filter.orderId) query = query.where('t.order_id', '=', filter.orderId);
  if (filter.poNumber !== undefined) {
    const po = filter.poNumber;
    query = query.where('t.order_id', 'in', (eb) =>
      eb.selectFrom('orders as o').select('o.id').where('o.po_number', '=', po),
    );
  }
  if (filter.executionStatus)
    query = query.where('t.execution_status', '=', filter.executionStatus);
  if (filter.actionType) query = query.where('t.action_type', '=', filter.actionType);
  if (filter.retailerIds) query = query.where('t.retailer_id', 'in', [...filter.retailerIds]);
  if (filter.brandIds) query = query.where('t.brand_id', 'in', [...filter.brandIds]);
  if (filter.facilityIds) query = query.where('t.facility_id', 'in', [...filter.facilityIds]);
  if (filter.hasError !== undefined) {
    const hasError = filter.hasError;
    query = filter.search
      ? query.where((eb) => search.searchedHasError(eb, hasError))
      : query.where('t.error_message', hasError ? 'is not' : 'is', null);
  }
  // ISO 8601 UTC text: 'YYYY-MM-DD' sorts before every time of that day.
  if (filter.createdFrom) query = query.where('t.created_at', '>=', filter.createdFrom);
  if (filter.createdBefore) query = query.where('t.created_at', '<', filter.createdBefore);
  return query;
}

/** A list filter naming nothing the user may see matches no row. */
function emptyListFilter(filter: TransactionFilter) {
  return [filter.retailerIds, filter.brandIds, filter.facilityIds].some(
    (ids) => ids !== undefined && ids.length === 0,
  );
}

/** ORDER BY keys of a sort: its column, then created_at, then the id, all in its direction. */
function sortKeys(sort: TransactionSort) {
  const keys: (
    'created_at' | 'updated_at' | 'execution_status' | 'action_type' | 'transaction_id'
  )[] =
    sort.field === 'created_at' || sort.field === 'updated_at'
      ? [sort.field]
      : [sort.field, 'created_at'];
  return [...keys, 'transaction_id' as const];
}

/** The page query of a filter (its rows, in the sort's order). */
function pageQuery(
  db: Db,
  filter: TransactionFilter,
  sort: TransactionSort,
  page: { limit: number; offset: number },
) {
  let query = filteredTransactions(db, filter).select(
    TRANSACTION_COLUMNS.map((c) => `t.${c}` as const),
  );
  for (const key of sortKeys(sort)) query = query.orderBy(`t.${key}`, sort.direction);
  return query.limit(page.limit).offset(page.offset);
}

/**
 * A searched page and its total in one pass over the matches: the visible matches' sort keys are
 * counted and cut to the page (compared as the engine's twin says, searchSortKey); the full rows
 * are read for the page only. The twin says how the count rides along (countsMatchesByWindow):
 * SQLite materializes the keys once (from transactions_search_ids, no transaction read) and counts
 * them; PostgreSQL counts them with `count(*) OVER ()` on their way into the top-N sort, which
 * measured a little cheaper at 1M rows (docs/benchmarks.md). Either way one scan of the matches.
 */
function searchPageQuery(
  db: Db,
  filter: TransactionFilter,
  sort: TransactionSort,
  page: { limit: number; offset: number },
) {
  return searchOf(db).countsMatchesByWindow
    ? windowCountedSearchPage(db, filter, sort, page)
    : materializedSearchPage(db, filter, sort, page);
}

/** searchPageQuery with the keys materialized (a CTE), counted and cut from there. */
function materializedSearchPage(
  db: Db,
  filter: TransactionFilter,
  sort: TransactionSort,
  page: { limit: number; offset: number },
) {
  const keys = sortKeys(sort);
  const { searchSortKey } = searchOf(db);
  return db
    .with(
      (cte) => cte('m').materialized(),
      () => filteredTransactions(db, filter).select(keys.map((key) => `t.${key}` as const)),
    )
    .selectFrom((qb) => {
      let cut = qb.selectFrom('m').select('m.transaction_id as id');
      for (const key of keys) cut = cut.orderBy(searchSortKey(`m.${key}`), sort.direction);
      return cut.limit(page.limit).offset(page.offset).as('k');
    })
    .innerJoin('transactions as t', 't.transaction_id', 'k.id')
    .select([
      ...TRANSACTION_COLUMNS.map((c) => `t.${c}` as const),
      (eb) => eb.selectFrom('m').select(eb.fn.countAll<number>().as('n')).as('total_count'),
    ])
    .$call((query) => {
      for (const key of keys) query = query.orderBy(searchSortKey(`t.${key}`), sort.direction);
      return query;
    });
}

/** searchPageQuery with the count a window over all matches, below the page's top-N sort. */
function windowCountedSearchPage(
  db: Db,
  filter: TransactionFilter,
  sort: TransactionSort,
  page: { limit: number; offset: number },
) {
  const keys = sortKeys(sort);
  const { searchSortKey } = searchOf(db);
  return db
    .selectFrom(() => {
      let cut = filteredTransactions(db, filter).select((eb) => [
        't.transaction_id as id',
        eb.fn.countAll<number>().over().as('n'),
      ]);
      for (const key of keys) cut = cut.orderBy(searchSortKey(`t.${key}`), sort.direction);
      return cut.limit(page.limit).offset(page.offset).as('k');
    })
    .innerJoin('transactions as t', 't.transaction_id', 'k.id')
    .select([...TRANSACTION_COLUMNS.map((c) => `t.${c}` as const), 'k.n as total_count'])
    .$call((query) => {
      for (const key of keys) query = query.orderBy(searchSortKey(`t.${key}`), sort.direction);
      return query;
    });
}

/** The filters transaction_counts can answer (all but one transaction, order, PO or search). */
function countableByGroups(filter: TransactionFilter) {
  return (
    !filter.transactionId && !filter.orderId && filter.poNumber === undefined && !filter.search
  );
}

/** The count query of a filter: a sum over transaction_counts where it can, else a row count. */
function countQuery(db: Db, filter: StatementFilter) {
  if (!countableByGroups(filter)) {
    return filteredTransactions(db, filter).select((eb) => eb.fn.countAll<number>().as('count'));
  }
  return groupCountQuery(db, filter);
}

/** A filter with the values derived from it, as the statements take them. */
interface StatementFilter extends TransactionFilter {
  /** The day after createdTo (exclusive bound). */
  createdBefore?: string;
  /** The search term as the engine's match expression (searchPhrase of its twin). */
  searchPhrase?: string;
}

function statementFilter(db: Db, filter: TransactionFilter): StatementFilter {
  return {
    ...filter,
    createdBefore: filter.createdTo ? dayAfter(filter.createdTo) : undefined,
    searchPhrase: filter.search ? searchOf(db).searchPhrase(filter.search) : undefined,
  };
}

function compileAll(
  db: Db,
  filter: StatementFilter,
  sort: TransactionSort,
  page: { limit: number; offset: number },
) {
  return {
    page: filter.search ? null : pageQuery(db, filter, sort, page).compile(),
    searchPage: filter.search ? searchPageQuery(db, filter, sort, page).compile() : null,
    count: countQuery(db, filter).compile(),
  };
}
type Statements = ReturnType<typeof compileAll>;

/*
 * Building and compiling the statements with Kysely cost more than running them for most pages,
 * so each filter shape (which filters, how many ids in each list, the sort) is compiled once:
 * with every value replaced by a placeholder, whose place in the parameters is then filled with
 * the request's own value. The placeholder filter of two filters of one shape is the same, so it
 * is also the cache key.
 */
const PLACEHOLDER = '\u0000';
const MAX_SHAPES = 256;
const shapes = new WeakMap<Db, Map<string, Statements>>();

/** `value` with every non-empty string and every number replaced by a new placeholder. */
function withPlaceholders<T>(value: T, values: Map<string, unknown>): T {
  if ((typeof value === 'string' && value !== '') || typeof value === 'number') {
    const placeholder = `${PLACEHOLDER}${values.size}`;
    values.set(placeholder, value);
    return placeholder as T;
  }
  if (Array.isArray(value)) return value.map((item) => withPlaceholders(item, values)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, withPlaceholders(item, values)]),
    ) as T;
  }
  return value;
}

function bound<O>(query: CompiledQuery<O>, values: Map<string, unknown>): CompiledQuery<O> {
  return {
    ...query,
    parameters: query.parameters.map((p) =>
      typeof p === 'string' && values.has(p) ? values.get(p) : p,
    ),
  };
}

/** The statements of a filter (from the compiled shape when there is one). */
function statementsOf(
  db: Db,
  filter: TransactionFilter,
  sort: TransactionSort,
  page: { limit: number; offset: number },
): Statements {
  const values = new Map<string, unknown>();
  const shape = withPlaceholders({ filter: statementFilter(db, filter), page }, values);
  const key = JSON.stringify([shape, sort]);
  let cache = shapes.get(db);
  let compiled = cache?.get(key);
  if (!compiled) {
    compiled = compileAll(db, shape.filter, sort, shape.page);
    const all = [compiled.page, compiled.searchPage, compiled.count].filter((q) => q !== null);
    // Only where every value went into the parameters (none written into the SQL).
    if (all.some((q) => q.sql.includes(PLACEHOLDER))) {
      return compileAll(db, statementFilter(db, filter), sort, page);
    }
    if (!cache || cache.size >= MAX_SHAPES) shapes.set(db, (cache = new Map()));
    cache.set(key, compiled);
  }
  return {
    page: compiled.page && bound(compiled.page, values),
    searchPage: compiled.searchPage && bound(compiled.searchPage, values),
    count: bound(compiled.count, values),
  };
}

/**
 * The SQL a page of the filter runs (null: nothing can match, no query runs; count null: the page
 * statement carries the total). Exposed so the bench can run the same statements on bare
 * better-sqlite3.
 */
export function compileTransactionQueries(
  db: Db,
  filter: TransactionFilter,
  sort: TransactionSort,
  page: { limit: number; offset: number },
) {
  if (matchesNothing(filter) || emptyListFilter(filter)) return null;
  const statements = statementsOf(db, filter, sort, page);
  if (statements.searchPage) return { page: statements.searchPage, count: null };
  return { page: statements.page!, count: statements.count };
}

async function countOf(db: Db, statements: Statements): Promise<number> {
  const { rows } = await db.executeQuery(statements.count);
  return Number(rows[0]!.count);
}

/** One page of the filter's rows, in the sort's order, and how many rows the filter has. */
export async function listTransactions(
  db: Db,
  filter: TransactionFilter,
  sort: TransactionSort,
  page: { limit: number; offset: number },
) {
  if (matchesNothing(filter) || emptyListFilter(filter)) return { rows: [], totalCount: 0 };
  const statements = statementsOf(db, filter, sort, page);
  if (statements.searchPage) {
    const { rows: found } = await db.executeQuery(statements.searchPage);
    const rows = found.map(({ total_count: _total, ...row }) => row);
    // An empty first page means no match; a page past the end has no row to carry the total.
    const totalCount =
      found.length > 0
        ? Number(found[0]!.total_count)
        : page.offset === 0
          ? 0
          : await countOf(db, statements);
    return { rows, totalCount };
  }
  const [totalCount, { rows }] = await Promise.all([
    countOf(db, statements),
    db.executeQuery(statements.page!),
  ]);
  return { rows, totalCount };
}
export type TransactionRow = Awaited<ReturnType<typeof listTransactions>>['rows'][number];

/**
 * The count rows of what the scope sees (as visible() for the log's rows): at its facilities (of
 * its brand), or brand-level ('' facility) of its brands. Written as one IN over the facility key
 * and a CASE for the brand, with no OR: SQLite 3.53 (better-sqlite3 12), once ANALYZE had run,
 * planned `day = ? AND (facility_key IN (…) OR (facility_key = '' AND brand_key IN (…)))` over
 * this WITHOUT ROWID table as a MULTI-INDEX OR of two key searches, and the second one, with
 * an IN list of two or more brands, found nothing: every all-days total lost its brand-level
 * rows (16,997 against PostgreSQL's 20,003 in the search bench at 20,000 rows).
 */
function visibleCounts(
  eb: ExpressionBuilder<{ c: TransactionCountsTable }, 'c'>,
  scope: TransactionScope,
): Expression<SqlBool> {
  const brandLevel = scope.brandIds.length > 0;
  const facilityKeys = brandLevel ? [...scope.facilityIds, ''] : [...scope.facilityIds];
  const inScope: Expression<SqlBool>[] = [eb('c.facility_key', 'in', facilityKeys)];
  if (brandLevel || scope.userBrandId !== null) {
    // Facility ids are never '', so the facility key tells which branch a count row is in.
    const atFacility: Expression<SqlBool> =
      scope.userBrandId === null ? sql<SqlBool>`TRUE` : eb('c.brand_key', '=', scope.userBrandId);
    const brand = brandLevel
      ? eb
          .case()
          .when('c.facility_key', '=', '')
          .then(eb('c.brand_key', 'in', [...scope.brandIds]))
          .else(atFacility)
          .end()
      : atFacility;
    inScope.push(brand);
  }
  return eb.and(inScope);
}

function groupCountQuery(db: Db, filter: TransactionFilter) {
  const { scope } = filter;
  let query = db.selectFrom('transaction_counts as c');
  if (filter.createdFrom || filter.createdTo) {
    // Day rows only ('' is the all-time row, and sorts before every day).
    query = query.where('c.day', '>=', filter.createdFrom ?? '0000-00-00');
    if (filter.createdTo) query = query.where('c.day', '<=', filter.createdTo);
  } else {
    query = query.where('c.day', '=', '');
  }
  query = query.where((eb) => visibleCounts(eb, scope));
  if (filter.executionStatus) {
    query = query.where('c.execution_status', '=', filter.executionStatus);
  }
  if (filter.actionType) query = query.where('c.action_type', '=', filter.actionType);
  if (filter.retailerIds) query = query.where('c.retailer_key', 'in', [...filter.retailerIds]);
  if (filter.brandIds) query = query.where('c.brand_key', 'in', [...filter.brandIds]);
  if (filter.facilityIds) query = query.where('c.facility_key', 'in', [...filter.facilityIds]);
  if (filter.hasError !== undefined) {
    query = query.where('c.has_error', '=', filter.hasError ? 1 : 0);
  }
  return query.select((eb) => eb.fn.coalesce(eb.fn.sum<number>('c.n'), sql<number>`0`).as('count'));
}

/** The picksheet code and PO number of each order named (a page's orders), by order id. */
export async function orderCodesOf(
  db: Db,
  orderIds: readonly string[],
): Promise<Map<string, { picksheet_code: string; po_number: string | null }>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('orders')
    .where('id', 'in', [...new Set(orderIds)])
    .select(['id', 'picksheet_code', 'po_number'])
    .execute();
  return new Map(rows.map(({ id, ...codes }) => [id, codes]));
}

/** Brands working at any of the facilities (for brand-level rows, which name no facility). */
export async function brandsAtFacilities(db: Db, facilityIds: readonly string[]) {
  if (facilityIds.length === 0) return [];
  const rows = await db
    .selectFrom('brand_facilities')
    .select('brand_id')
    .distinct()
    .where('facility_id', 'in', [...facilityIds])
    .orderBy('brand_id')
    .execute();
  return rows.map((row) => row.brand_id);
}

/** Rows per statement: 20 columns each stays far below SQLite's 32,766 bound parameters. */
const UPSERT_BATCH = 500;

/**
 * Transaction-log rows as stored, upserted by transaction_id (seed imports). Batched: the demo's
 * ~2,000 rows one statement each cost a second of start-up.
 */
export async function upsertTransactionRows(db: Db, given: readonly TransactionsTable[]) {
  // In one order across all batches: two imports at once lock their count rows alike.
  const rows = inCountLockOrder(db, given);
  for (let start = 0; start < rows.length; start += UPSERT_BATCH) {
    const batch = rows.slice(start, start + UPSERT_BATCH);
    const columns = Object.keys(batch[0]!).filter(
      (c) => c !== 'transaction_id',
    ) as (keyof TransactionsTable)[];
    await db
      .insertInto('transactions')
      .values(batch)
      .onConflict((oc) =>
        oc
          .column('transaction_id')
          .doUpdateSet((eb) =>
            Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}`)])),
          ),
      )
      .execute();
  }
}
