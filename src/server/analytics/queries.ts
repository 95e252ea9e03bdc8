import { engineOf } from '../db/engine';
import { notOnPostgres } from '../core/errors';
import { sql, type CompiledQuery } from 'kysely';
import { LABEL_PRINT_METRICS } from '../../shared/fulfilment-activity';
import { ORDER_TIMESTAMP_FIELDS } from '../../shared/orders';
import type { Db } from '../db/db';
import type { OrdersTable } from '../db/schema';

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

/** The order's timestamps the rows carry (every one a column of orders). */
const TIME_COLUMNS = ORDER_TIMESTAMP_FIELDS satisfies readonly (keyof OrdersTable)[];

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

const LABELS = sql.join(LABEL_PRINT_METRICS.map((metric) => sql.lit(metric)));

/*
 * The whole page in one statement, compiled once per database: the page of orders (newest first)
 * and, per order, its lines, packed units per SKU and the counts of its pallets, cartons, SKU
 * lines and activity, as one JSON document. The analytics table is polled; one statement instead
 * of six keeps our layer near the cost of the SQL itself (bench/reports.ts).
 */
type PageKind = 'facility' | 'facilities';
const pageQueries: Record<PageKind, WeakMap<Db, CompiledQuery<{ page: string | null }>>> = {
  facility: new WeakMap(),
  facilities: new WeakMap(),
};
function pageQuery(db: Db, kind: PageKind) {
  let query = pageQueries[kind].get(db);
  if (query) return query;
  // Placeholders, replaced on every run (see listAnalyticsOrders for their order).
  const p = (n: number) => sql.val(`\u0000${n}`);
  query = sql<{ page: string | null }>`
    select json_group_array(json_object(
      'id', o.id, 'picksheet_code', o.picksheet_code, 'status', o.status,
      'brand_name', b.name, 'retailer_name', r.name,
      'times', json_object(${sql.join(TIME_COLUMNS.map((c) => sql`${sql.lit(c)}, ${sql.ref(`o.${c}`)}`))}),
      'lines', json((select json_group_array(json_object('sku', i.sku, 'upc', i.upc,
          'quantity', i.quantity) order by i.line_number)
        from order_items i where i.order_id = o.id)),
      'packed', json((select json_group_object(k.sku, k.quantity) from (
          select s.sku, sum(s.quantity) as quantity from cartons c
          join carton_skus s on s.carton_id = c.id where c.order_id = o.id group by s.sku) k)),
      'pallets', (select count(*) from pallets p where p.order_id = o.id),
      'cartons', (select count(*) from cartons c where c.order_id = o.id),
      'units', (select coalesce(sum(s.quantity), 0) from cartons c
        join carton_skus s on s.carton_id = c.id where c.order_id = o.id),
      'skus', (select count(distinct s.sku) from cartons c
        join carton_skus s on s.carton_id = c.id where c.order_id = o.id),
      'labels', (select coalesce(sum(a.count), 0) from order_activity a
        where a.order_id = o.id and a.kind = 'LABEL_PRINT' and a.metric in (${LABELS})),
      'unique_labels', (select count(distinct a.metric || '|' || coalesce(a.sscc, a.carton_id, a.pallet_id, a.id))
        from order_activity a
        where a.order_id = o.id and a.kind = 'LABEL_PRINT' and a.metric in (${LABELS})),
      'vas_actions', (select coalesce(sum(a.count), 0) from order_activity a
        where a.order_id = o.id and a.kind = 'ACTION' and a.action_type = 'VAS')
    ) order by o.created_at desc, o.id desc) as page
    from (
      select * from orders
      where ${
        kind === 'facility'
          ? // One facility: its (facility_id, created_at, id) index gives the page in order.
            sql`facility_id = ${p(0)}`
          : // Several: walk orders newest first (orders_created) and keep the user's; the
            // unary + keeps SQLite from sorting every order of those facilities instead.
            sql`+facility_id in (select value from json_each(${p(0)}))`
      }
        and (${p(1)} is null or brand_id = ${p(2)})
        and (${p(3)} is null or id = ${p(4)})
      order by created_at desc, id desc
      limit ${p(5)} offset ${p(6)}
    ) o
    join brands b on b.id = o.brand_id
    join retailers r on r.id = o.retailer_id`.compile(db);
  pageQueries[kind].set(db, query);
  return query;
}

/** One page of orders, newest first, with their names, times, lines and counts. */
export async function listAnalyticsOrders(
  db: Db,
  scope: AnalyticsScope,
  page: { limit: number; offset: number },
): Promise<AnalyticsOrder[]> {
  // Built on SQLite's JSON functions: no PostgreSQL twin yet (docs/operations.md).
  if (engineOf(db) === 'postgres') throw notOnPostgres('Orders analytics');
  if (scope.facilityIds.length === 0) return [];
  const brand = scope.userBrandId;
  const order = scope.orderId ?? null;
  const kind: PageKind = scope.facilityIds.length === 1 ? 'facility' : 'facilities';
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
