import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { TransactionSortField } from '../../shared/transactions';
import type { Db } from './database';
import type { Database, TransactionsTable } from './schema';
import { searchMatchIds } from './transactions-search';

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

const TRANSACTION_COLUMNS = [
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

/** The day after a YYYY-MM-DD day: the exclusive upper bound of "created on or before". */
export function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** True when nothing can match: the user sees no facility, or a list filter is empty. */
function matchesNothing(filter: TransactionFilter) {
  return filter.scope.facilityIds.length === 0;
}

type Tx = ExpressionBuilder<Database & { t: TransactionsTable }, 't'>;

/** Rows the user sees: at its facilities (of its brand), or brand-level rows of its brands. */
function visible(eb: Tx, scope: TransactionScope): Expression<SqlBool> {
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
function filteredTransactions(db: Db, filter: TransactionFilter) {
  let query = filter.search
    ? db
        .selectFrom(searchMatchIds(filter.search).as('hit'))
        // CROSS JOIN keeps the index's matches as the outer loop (SQLite does not reorder it).
        .crossJoin('transactions as t')
        .whereRef('t.transaction_id', '=', sql.ref('hit.id'))
    : db.selectFrom('transactions as t');
  query = query.where((eb) => visible(eb as unknown as Tx, filter.scope));
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
    query = query.where('t.error_message', filter.hasError ? 'is not' : 'is', null);
  }
  // ISO 8601 UTC text: 'YYYY-MM-DD' sorts before every time of that day.
  if (filter.createdFrom) query = query.where('t.created_at', '>=', filter.createdFrom);
  if (filter.createdTo) query = query.where('t.created_at', '<', dayAfter(filter.createdTo));
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
 * A searched page and its total in one pass over the matches: every match costs row lookups, so
 * counting them in a second statement would pay that twice. The keys are cut first; the full
 * rows are read for the page only.
 */
function searchPageQuery(
  db: Db,
  filter: TransactionFilter,
  sort: TransactionSort,
  page: { limit: number; offset: number },
) {
  let keys = filteredTransactions(db, filter).select([
    't.transaction_id as id',
    sql<number>`count(*) over ()`.as('total_count'),
  ]);
  for (const key of sortKeys(sort)) keys = keys.orderBy(`t.${key}`, sort.direction);
  let query = db
    .selectFrom(keys.limit(page.limit).offset(page.offset).as('k'))
    .innerJoin('transactions as t', 't.transaction_id', 'k.id')
    .select([...TRANSACTION_COLUMNS.map((c) => `t.${c}` as const), 'k.total_count']);
  for (const key of sortKeys(sort)) query = query.orderBy(`t.${key}`, sort.direction);
  return query;
}

/** The filters transaction_counts can answer (all but one transaction, order, PO or search). */
function countableByGroups(filter: TransactionFilter) {
  return (
    !filter.transactionId && !filter.orderId && filter.poNumber === undefined && !filter.search
  );
}

/** The count query of a filter: a sum over transaction_counts where it can, else a row count. */
function countQuery(db: Db, filter: TransactionFilter) {
  if (!countableByGroups(filter)) {
    return filteredTransactions(db, filter).select((eb) => eb.fn.countAll<number>().as('count'));
  }
  return groupCountQuery(db, filter);
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
  if (filter.search)
    return { page: searchPageQuery(db, filter, sort, page).compile(), count: null };
  return {
    page: pageQuery(db, filter, sort, page).compile(),
    count: countQuery(db, filter).compile(),
  };
}

async function countTransactions(db: Db, filter: TransactionFilter): Promise<number> {
  const row = await countQuery(db, filter).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One page of the filter's rows, in the sort's order, and how many rows the filter has. */
export async function listTransactions(
  db: Db,
  filter: TransactionFilter,
  sort: TransactionSort,
  page: { limit: number; offset: number },
) {
  if (matchesNothing(filter) || emptyListFilter(filter)) return { rows: [], totalCount: 0 };
  if (filter.search) {
    const found = await searchPageQuery(db, filter, sort, page).execute();
    const rows = found.map(({ total_count: _total, ...row }) => row);
    // A page past the end has no row to carry the total.
    const totalCount =
      found.length > 0 ? Number(found[0]!.total_count) : await countTransactions(db, filter);
    return { rows, totalCount };
  }
  const [totalCount, rows] = await Promise.all([
    countTransactions(db, filter),
    pageQuery(db, filter, sort, page).execute(),
  ]);
  return { rows, totalCount };
}
export type TransactionRow = Awaited<ReturnType<typeof listTransactions>>['rows'][number];

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
  query = query.where((eb) => {
    const atFacility = [eb('c.facility_key', 'in', [...scope.facilityIds])];
    if (scope.userBrandId !== null) atFacility.push(eb('c.brand_key', '=', scope.userBrandId));
    const branches = [eb.and(atFacility)];
    if (scope.brandIds.length > 0) {
      branches.push(
        eb.and([eb('c.facility_key', '=', ''), eb('c.brand_key', 'in', [...scope.brandIds])]),
      );
    }
    return eb.or(branches);
  });
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

/** One transaction-log row as stored, upserted by transaction_id (seed imports). */
export async function upsertTransactionRow(db: Db, row: TransactionsTable) {
  const { transaction_id: _id, ...rest } = row;
  await db
    .insertInto('transactions')
    .values(row)
    .onConflict((oc) => oc.column('transaction_id').doUpdateSet(rest))
    .execute();
}
