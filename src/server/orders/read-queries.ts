import { sql, type CompiledQuery } from 'kysely';
import { FINAL_STATUSES, type DueFilter } from '../../shared/orders';
import type { Db } from '../db/db';
import { engineOf } from '../db/engine';
import { postgresCacheVersion } from '../db/cache-versions.postgres';
import type { OrderStatusValue } from '../db/schema';
import type { OrderDocument } from './order-document-columns';
import { orderDocumentSql as sqliteOrderDocument } from './order-document-sql';
import { orderDocumentSql as postgresOrderDocument } from './order-document-sql.postgres';

export {
  ORDER_TEXT_COLUMNS,
  ORDER_TIME_COLUMNS,
  type OrderDocument,
} from './order-document-columns';

/*
 * Order details are polled in tight loops by local integrations (issue 11). Materialising rows
 * into JS objects is what costs (a 55-column row ~11 µs, the pallet tree as joined rows ~60 µs),
 * so SQLite builds the whole order (lines, pallets, cartons, SKU lines) as one JSON document in
 * one query, compiled by Kysely once per database and run with the order id as its parameter.
 * Each engine has its JSON query: ./order-document-sql.ts and its twin ./order-document-sql.postgres.ts.
 */

/** Stands in for the order id while the query is compiled; replaced on every run. */
const ORDER_ID = '\u0000order-id';

/** A query compiled once per database (and engine); `run` substitutes the order id. */
function compiledPerDb<Row>(build: (db: Db) => CompiledQuery<Row>) {
  const compiled = new WeakMap<Db, CompiledQuery<Row>>();
  return async (db: Db, orderId: string): Promise<Row[]> => {
    let query = compiled.get(db);
    if (!query) {
      query = build(db);
      compiled.set(db, query);
    }
    const parameters = query.parameters.map((p) => (p === ORDER_ID ? orderId : p));
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}

const orderDocumentQuery = compiledPerDb<{ document: string }>((db) =>
  (engineOf(db) === 'postgres' ? postgresOrderDocument : sqliteOrderDocument)(ORDER_ID).compile(db),
);

/**
 * The order with its names, codes, lines and pallet tree, or undefined. Visibility is the
 * caller's: the domain checks the order's facility and brand against the user's (cached) scope.
 * Cartons not (yet) on a pallet are not part of it: Order details has no place for them.
 */
export async function findOrderDocument(db: Db, orderId: string) {
  const row = (await orderDocumentQuery(db, orderId))[0];
  return row && (JSON.parse(row.document) as OrderDocument);
}

export interface OrderListFilter {
  /** The facilities the user sees; only their orders are listed. */
  facilityIds: readonly string[];
  /** The credentials' brand: only its orders are listed. */
  userBrandId: string | null;
  search?: string;
  statuses?: readonly OrderStatusValue[];
  facilityId?: string;
  retailerId?: string;
  brandId?: string;
  /** Inclusive bounds on the ship-by day, `YYYY-MM-DD`. */
  shipByFrom?: string;
  shipByTo?: string;
  /** Not shipped or cancelled, and the ship-by day is before (`late`) or on (`today`) `today`. */
  due?: { filter: DueFilter; today: string };
}

export type OrderSortField =
  | 'created_at'
  | 'updated_at'
  | 'picksheet_code'
  | 'po_number'
  | 'status'
  | 'requested_ship_date'
  | 'cancel_by_date'
  | 'ship_by';

/**
 * The ship-by day in SQL, as `shipByDate` (src/shared/ship-by.ts) reads it: the latest ship date,
 * else the requested ship date, by its calendar day.
 */
const SHIP_BY = sql<
  string | null
>`substr(coalesce(nullif(o.latest_ship_date, ''), nullif(o.requested_ship_date, '')), 1, 10)`;

/** `%` and `_` in a search are literal characters, not patterns. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/** Orders in the filter's scope (the orders table alone: every filter is on its columns). */
function filteredOrders(db: Db, filter: OrderListFilter) {
  let query = db.selectFrom('orders as o').where('o.facility_id', 'in', [...filter.facilityIds]);
  if (filter.userBrandId !== null) query = query.where('o.brand_id', '=', filter.userBrandId);
  if (filter.facilityId) query = query.where('o.facility_id', '=', filter.facilityId);
  if (filter.retailerId) query = query.where('o.retailer_id', '=', filter.retailerId);
  if (filter.brandId) query = query.where('o.brand_id', '=', filter.brandId);
  if (filter.statuses?.length) query = query.where('o.status', 'in', [...filter.statuses]);
  if (filter.shipByFrom) query = query.where(SHIP_BY, '>=', filter.shipByFrom);
  if (filter.shipByTo) query = query.where(SHIP_BY, '<=', filter.shipByTo);
  if (filter.due) {
    const { filter: due, today } = filter.due;
    query = query
      .where('o.status', 'not in', [...FINAL_STATUSES])
      .where(SHIP_BY, due === 'late' ? '<' : due === 'today' ? '=' : '<=', today);
  }
  if (filter.search) {
    // lower() + LIKE … ESCAPE reads the same on SQLite and PostgreSQL.
    const pattern = likePattern(filter.search);
    const matches = (column: 'o.po_number' | 'o.picksheet_code' | 'o.external_order_id') =>
      sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    query = query.where(({ or }) =>
      or([matches('o.po_number'), matches('o.picksheet_code'), matches('o.external_order_id')]),
    );
  }
  return query;
}

/** Status sorts along the flow (Open first, Cancelled last), not alphabetically. */
const STATUS_RANK = sql<number>`case o.status when 'Open' then 0 when 'Picking' then 1 when 'Packed' then 2 when 'Staged' then 3 when 'Loaded' then 4 when 'Shipped' then 5 else 6 end`;

export async function countOrders(db: Db, filter: OrderListFilter): Promise<number> {
  if (filter.facilityIds.length === 0) return 0;
  const row = await filteredOrders(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One page of orders, each with its line count and units. */
export async function listOrders(
  db: Db,
  filter: OrderListFilter,
  sort: { field: OrderSortField; direction: 'asc' | 'desc' },
  page: { limit: number; offset: number },
) {
  if (filter.facilityIds.length === 0) return [];
  const sortKey =
    sort.field === 'status'
      ? STATUS_RANK
      : sort.field === 'ship_by'
        ? SHIP_BY
        : sql.ref(`o.${sort.field}`);
  // The page is cut from the orders table first; names and line totals are then looked up for
  // its rows only, not for every row skipped by the offset.
  const pageIds = filteredOrders(db, filter)
    .select('o.id')
    .orderBy(sortKey, sort.direction)
    .orderBy('o.id', sort.direction)
    .limit(page.limit)
    .offset(page.offset);
  return db
    .selectFrom(pageIds.as('page'))
    .innerJoin('orders as o', 'o.id', 'page.id')
    .innerJoin('brands as b', 'b.id', 'o.brand_id')
    .innerJoin('retailers as r', 'r.id', 'o.retailer_id')
    .innerJoin('facilities as f', 'f.id', 'o.facility_id')
    .select((eb) => [
      'o.id',
      'o.picksheet_code',
      'o.po_number',
      'o.external_order_id',
      'o.status',
      'o.brand_id',
      'b.name as brand_name',
      'o.retailer_id',
      'r.name as retailer_name',
      'o.facility_id',
      'f.name as facility_name',
      'f.external_facility_code',
      'o.requested_ship_date',
      'o.latest_ship_date',
      'o.cancel_by_date',
      'o.created_at',
      'o.updated_at',
      eb
        .selectFrom('order_items as i')
        .whereRef('i.order_id', '=', 'o.id')
        .select((sub) => sub.fn.countAll<number>().as('n'))
        .as('item_count'),
      eb
        .selectFrom('order_items as i')
        .whereRef('i.order_id', '=', 'o.id')
        .select((sub) => sub.fn.coalesce(sub.fn.sum<number>('i.quantity'), sql<number>`0`).as('n'))
        .as('total_units'),
    ])
    .orderBy(sortKey, sort.direction)
    .orderBy('o.id', sort.direction)
    .execute();
}
export type OrderListRow = Awaited<ReturnType<typeof listOrders>>[number];

/*
 * The order data version: a counter that TEMP triggers move on every write to the rows order
 * details are made of, inside the writing statement (so every write path is covered: commands,
 * bill-of-lading uploads, seed imports, fulfilment, a test writing rows by hand; a rolled-back
 * write rolls the counter back too). Kysely runs SQLite on one connection, so the TEMP table and
 * triggers live there and no migration is needed; another process writing the file is not seen.
 */
const ORDER_DATA_TRIGGERS: Record<string, string[]> = {
  orders: ['INSERT', 'UPDATE', 'DELETE'],
  order_items: ['INSERT', 'UPDATE', 'DELETE'],
  pallets: ['INSERT', 'UPDATE', 'DELETE'],
  cartons: ['INSERT', 'UPDATE', 'DELETE'],
  carton_skus: ['INSERT', 'UPDATE', 'DELETE'],
  brands: ['UPDATE OF name, external_brand_code'],
  facilities: ['UPDATE OF name, external_facility_code'],
  retailers: ['UPDATE OF name'],
};
const installed = new WeakMap<Db, Promise<void>>();

async function installOrderDataVersion(db: Db) {
  await sql`CREATE TEMP TABLE IF NOT EXISTS order_data_version (v INTEGER NOT NULL)`.execute(db);
  await sql`INSERT INTO temp.order_data_version (v)
    SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM temp.order_data_version)`.execute(db);
  for (const [table, events] of Object.entries(ORDER_DATA_TRIGGERS)) {
    for (const [index, event] of events.entries()) {
      await sql`${sql.raw(
        `CREATE TEMP TRIGGER IF NOT EXISTS order_data_${table}_${index} AFTER ${event} ` +
          `ON main.${table} BEGIN UPDATE temp.order_data_version SET v = v + 1; END`,
      )}`.execute(db);
    }
  }
}

const versionQuery = new WeakMap<Db, CompiledQuery<{ v: number }>>();

/**
 * The order data version now (installing its triggers on first use). On PostgreSQL, whose pool
 * has no per-connection triggers and whose other processes write too, the counter permanent
 * triggers keep for every process (db/cache-versions.postgres.ts); null inside a transaction
 * there (its writes count at its commit), and callers then do not cache.
 */
export async function orderDataVersion(db: Db): Promise<number | null> {
  if (engineOf(db) === 'postgres') {
    return db.isTransaction ? null : postgresCacheVersion(db, 'orders');
  }
  let install = installed.get(db);
  if (!install) {
    install = installOrderDataVersion(db);
    installed.set(db, install);
    // A failed install (a closing database) is tried again by the next request.
    install.catch(() => installed.delete(db));
  }
  await install;
  let query = versionQuery.get(db);
  if (!query) {
    query = sql<{ v: number }>`SELECT v FROM temp.order_data_version`.compile(db);
    versionQuery.set(db, query);
  }
  return (await db.executeQuery(query)).rows[0]!.v;
}
