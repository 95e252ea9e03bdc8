import { sql, type CompiledQuery, type Compilable } from 'kysely';
import type { Db } from './database';
import type { OrderStatusValue } from './schema';

/*
 * Reads of order details. The route is polled in tight loops by local integrations (issue 11), so
 * its two queries are built and compiled by Kysely once per database and then run with new
 * parameters: the SQL text is the same, so better-sqlite3's cached statement is reused too.
 */

/** Stands in for the order id while a query is compiled; replaced on every run. */
const ORDER_ID = '\u0000order-id';

/** A query compiled once per database; `run` substitutes the order id. */
function compiledPerDb<Row>(build: (db: Db) => Compilable<Row>) {
  const compiled = new WeakMap<Db, CompiledQuery<Row>>();
  return async (db: Db, orderId: string): Promise<Row[]> => {
    let query = compiled.get(db);
    if (!query) {
      query = build(db).compile();
      compiled.set(db, query);
    }
    const parameters = query.parameters.map((p) => (p === ORDER_ID ? orderId : p));
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}

const orderRow = compiledPerDb((db) =>
  db
    .selectFrom('orders as o')
    .innerJoin('brands as b', 'b.id', 'o.brand_id')
    .innerJoin('facilities as f', 'f.id', 'o.facility_id')
    .innerJoin('retailers as r', 'r.id', 'o.retailer_id')
    .selectAll('o')
    .select([
      'b.external_brand_code',
      'b.name as brand_name',
      'f.external_facility_code',
      'f.name as facility_name',
      'r.name as retailer_name',
    ])
    .where('o.id', '=', ORDER_ID),
);

/**
 * The order with its brand, facility and retailer names and codes, or undefined. Visibility is the caller's: the
 * domain checks the row's facility and brand against the user's (cached) scope.
 */
export async function findOrderWithCodes(db: Db, orderId: string) {
  return (await orderRow(db, orderId))[0];
}
export type OrderWithCodes = NonNullable<Awaited<ReturnType<typeof findOrderWithCodes>>>;

const itemRows = compiledPerDb((db) =>
  db
    .selectFrom('order_items')
    .select([
      'sku',
      'upc',
      'quantity',
      'case_pack_quantity',
      'case_barcode',
      'vendor_pn',
      'description',
      'trackers_json',
      'pass_through_json',
    ])
    .where('order_id', '=', ORDER_ID)
    .orderBy('line_number'),
);

/** The order's lines in body order. */
export function listOrderItems(db: Db, orderId: string) {
  return itemRows(db, orderId);
}
export type OrderItemRow = Awaited<ReturnType<typeof listOrderItems>>[number];

/**
 * Pallets, their cartons and the cartons' SKU lines, flattened: one row per SKU line (a pallet
 * without cartons, or a carton without SKUs, gives one row with nulls). One query, not one per
 * pallet; ordered so the rows group by pallet, then carton.
 */
const palletTreeRows = compiledPerDb((db) =>
  db
    .selectFrom('pallets as p')
    .leftJoin('cartons as c', 'c.pallet_id', 'p.id')
    .leftJoin('carton_skus as s', 's.carton_id', 'c.id')
    .select([
      'p.id as pallet_id',
      'p.created_at as pallet_created_at',
      'p.staged_by as pallet_staged_by',
      'p.staged_at as pallet_staged_at',
      'p.sscc as pallet_sscc',
      'p.status as pallet_status',
      'p.dim_unit as pallet_dim_unit',
      'p.height as pallet_height',
      'p.width as pallet_width',
      'p.length as pallet_length',
      'p.weight_unit as pallet_weight_unit',
      'p.weight as pallet_weight',
      'c.id as carton_id',
      'c.sscc as carton_sscc',
      'c.created_at as carton_created_at',
      'c.packed_by as carton_packed_by',
      'c.packing_complete_at as carton_packing_complete_at',
      'c.parcel_tracking_number as carton_parcel_tracking_number',
      'c.dim_unit as carton_dim_unit',
      'c.height as carton_height',
      'c.width as carton_width',
      'c.length as carton_length',
      'c.weight_unit as carton_weight_unit',
      'c.weight as carton_weight',
      's.sku',
      's.upc',
      's.quantity',
      's.serial_numbers_json',
    ])
    .where('p.order_id', '=', ORDER_ID)
    .orderBy('p.created_at')
    .orderBy('p.id')
    .orderBy('c.created_at')
    .orderBy('c.id')
    .orderBy('s.sku')
    .orderBy('s.id'),
);

export function listPalletTree(db: Db, orderId: string) {
  return palletTreeRows(db, orderId);
}
export type PalletTreeRow = Awaited<ReturnType<typeof listPalletTree>>[number];

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
}

export type OrderSortField =
  | 'created_at'
  | 'updated_at'
  | 'picksheet_code'
  | 'po_number'
  | 'status'
  | 'requested_ship_date'
  | 'cancel_by_date';

/** `%` and `_` in a search are literal characters, not patterns. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/** Orders in the filter's scope, with brand, retailer and facility joined for their names. */
function filteredOrders(db: Db, filter: OrderListFilter) {
  let query = db
    .selectFrom('orders as o')
    .innerJoin('brands as b', 'b.id', 'o.brand_id')
    .innerJoin('retailers as r', 'r.id', 'o.retailer_id')
    .innerJoin('facilities as f', 'f.id', 'o.facility_id')
    .where('o.facility_id', 'in', [...filter.facilityIds]);
  if (filter.userBrandId !== null) query = query.where('o.brand_id', '=', filter.userBrandId);
  if (filter.facilityId) query = query.where('o.facility_id', '=', filter.facilityId);
  if (filter.retailerId) query = query.where('o.retailer_id', '=', filter.retailerId);
  if (filter.brandId) query = query.where('o.brand_id', '=', filter.brandId);
  if (filter.statuses?.length) query = query.where('o.status', 'in', [...filter.statuses]);
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
  const sortKey = sort.field === 'status' ? STATUS_RANK : sql.ref(`o.${sort.field}`);
  return filteredOrders(db, filter)
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
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
export type OrderListRow = Awaited<ReturnType<typeof listOrders>>[number];
