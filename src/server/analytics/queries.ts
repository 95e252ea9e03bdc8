import { engineOf } from '../db/engine';
import { sql, type CompiledQuery } from 'kysely';
import type { Db } from '../db/db';
import { analyticsPageSql as sqliteAnalyticsPageSql, TIME_COLUMNS } from './page-sql';
import type { AnalyticsPageKind } from './page-sql';
import { analyticsPageSql as postgresAnalyticsPageSql } from './page-sql.postgres';

/*
 * Orders analytics (9, 10) and the per-order counts of invoice order details (13): what the
 * orders' pallets, cartons, SKU lines and recorded activity add up to, computed from those rows
 * for the orders of one page.
 */

export interface AnalyticsScope {
  /** The facilities whose orders are read (already narrowed to what the user sees). */
  facilityIds: readonly string[];
  /** The credentials' brand: only its orders. */
  userBrandId: string | null;
  orderId?: string;
}

/** One order of an analytics page, as the page query builds it (JSON, parsed). */
export interface AnalyticsOrder {
  id: string;
  picksheet_code: string;
  status: string;
  brand_name: string;
  retailer_name: string;
  times: Record<(typeof TIME_COLUMNS)[number], string | null>;
  lines: { sku: string; upc: string | null; quantity: number }[];
  /** Units packed per SKU. */
  packed: Record<string, number> | null;
  pallets: number;
  cartons: number;
  units: number;
  skus: number;
  labels: number;
  unique_labels: number;
  vas_actions: number;
}

/** The engine's twin of the page statement (./page-sql.ts). */
const pageSqlOf = (db: Db) =>
  engineOf(db) === 'postgres' ? postgresAnalyticsPageSql : sqliteAnalyticsPageSql;

/*
 * The whole page in one statement, compiled once per database: the page of orders (newest first)
 * and, per order, its lines, packed units per SKU and the counts of its pallets, cartons, SKU
 * lines and activity, as one JSON document. The analytics table is polled; one statement instead
 * of six keeps our layer near the cost of the SQL itself (bench/reports.ts).
 */
const pageQueries: Record<
  AnalyticsPageKind,
  WeakMap<Db, CompiledQuery<{ page: string | null }>>
> = {
  facility: new WeakMap(),
  facilities: new WeakMap(),
};
function pageQuery(db: Db, kind: AnalyticsPageKind) {
  let query = pageQueries[kind].get(db);
  if (query) return query;
  // Placeholders, replaced on every run (see listAnalyticsOrders for their order).
  const p = (n: number) => sql.val(`\u0000${n}`);
  query = pageSqlOf(db)(kind, p).compile(db);
  pageQueries[kind].set(db, query);
  return query;
}

/** One page of orders, newest first, with their names, times, lines and counts. */
export async function listAnalyticsOrders(
  db: Db,
  scope: AnalyticsScope,
  page: { limit: number; offset: number },
): Promise<AnalyticsOrder[]> {
  if (scope.facilityIds.length === 0) return [];
  const brand = scope.userBrandId;
  const order = scope.orderId ?? null;
  const kind: AnalyticsPageKind = scope.facilityIds.length === 1 ? 'facility' : 'facilities';
  const parameters = [
    kind === 'facility' ? scope.facilityIds[0] : JSON.stringify(scope.facilityIds),
    brand,
    brand,
    order,
    order,
    page.limit,
    page.offset,
  ];
  const { rows } = await db.executeQuery<{ page: string | null }>({
    ...pageQuery(db, kind),
    parameters,
  });
  const text = rows[0]?.page;
  return text ? (JSON.parse(text) as AnalyticsOrder[]) : [];
}

/** Pallets, cartons, packed units and distinct packed SKUs of each order. */
export async function packedTotals(db: Db, orderIds: readonly string[]) {
  if (orderIds.length === 0) return [];
  return db
    .selectFrom('orders as o')
    .where('o.id', 'in', [...orderIds])
    .select((eb) => [
      'o.id',
      eb
        .selectFrom('pallets as p')
        .whereRef('p.order_id', '=', 'o.id')
        .select((s) => s.fn.countAll<number>().as('n'))
        .as('pallets'),
      eb
        .selectFrom('cartons as c')
        .whereRef('c.order_id', '=', 'o.id')
        .select((s) => s.fn.countAll<number>().as('n'))
        .as('cartons'),
      eb
        .selectFrom('cartons as c')
        .innerJoin('carton_skus as s', 's.carton_id', 'c.id')
        .whereRef('c.order_id', '=', 'o.id')
        .select(sql<number>`coalesce(sum(s.quantity), 0)`.as('n'))
        .as('units'),
      eb
        .selectFrom('cartons as c')
        .innerJoin('carton_skus as s', 's.carton_id', 'c.id')
        .whereRef('c.order_id', '=', 'o.id')
        .select(sql<number>`count(distinct s.sku)`.as('n'))
        .as('skus'),
    ])
    .execute();
}

/** Recorded activity per order, summed by kind, action type and metric. */
export function activityTotals(db: Db, orderIds: readonly string[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('order_activity')
    .where('order_id', 'in', [...orderIds])
    .groupBy(['order_id', 'kind', 'action_type', 'metric'])
    .select(['order_id', 'kind', 'action_type', 'metric', sql<number>`sum(count)`.as('count')])
    .execute();
}
