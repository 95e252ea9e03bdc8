import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/db';

/*
 * Billing prices per brand (cents), and the sums of invoices (12) over the orders in scope, read
 * from the per-order totals that triggers keep (./rollup.ts).
 */

export function listPrices(db: Db, brandIds: readonly string[]) {
  if (brandIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('billing_prices')
    .where('brand_id', 'in', [...brandIds])
    .select(['brand_id', 'metric', 'price_cents'])
    .execute();
}

export function listActionPrices(db: Db, brandIds: readonly string[]) {
  if (brandIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('billing_action_prices')
    .where('brand_id', 'in', [...brandIds])
    .select(['brand_id', 'action_type', 'metric', 'price_cents'])
    .orderBy('brand_id')
    .orderBy('action_type')
    .orderBy('metric')
    .execute();
}

export interface PriceRows {
  prices: { metric: string; price_cents: number }[];
  actions: { action_type: string; metric: string; price_cents: number }[];
}

/** Replaces a brand's whole price list (in the caller's transaction). */
export async function replacePrices(db: Db, brandId: string, rows: PriceRows, at: string) {
  await db.deleteFrom('billing_prices').where('brand_id', '=', brandId).execute();
  await db.deleteFrom('billing_action_prices').where('brand_id', '=', brandId).execute();
  if (rows.prices.length > 0) {
    await db
      .insertInto('billing_prices')
      .values(rows.prices.map((p) => ({ ...p, brand_id: brandId, updated_at: at })))
      .execute();
  }
  if (rows.actions.length > 0) {
    await db
      .insertInto('billing_action_prices')
      .values(rows.actions.map((a) => ({ ...a, brand_id: brandId, updated_at: at })))
      .execute();
  }
}

/** Brands working at any of `facilityIds`, narrowed to `userBrandId` when set; by name. */
export function listBrandsAtFacilities(
  db: Db,
  facilityIds: readonly string[],
  userBrandId: string | null,
) {
  if (facilityIds.length === 0) return Promise.resolve([]);
  let query = db
    .selectFrom('brands as b')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('brand_facilities as bf')
          .select('bf.brand_id')
          .whereRef('bf.brand_id', '=', 'b.id')
          .where('bf.facility_id', 'in', [...facilityIds]),
      ),
    )
    .select(['b.id', 'b.name']);
  if (userBrandId !== null) query = query.where('b.id', '=', userBrandId);
  return query.orderBy('b.name').orderBy('b.id').execute();
}

/** Which orders an invoice counts. Dates are `YYYY-MM-DD`; `...Before` bounds are exclusive. */
export interface InvoiceFilter {
  facilityIds: readonly string[];
  userBrandId: string | null;
  brandId?: string;
  retailerId?: string;
  transportationMethod?: string;
  asnSentFrom?: string;
  asnSentBefore?: string;
  packedFrom?: string;
  packedBefore?: string;
  orderId?: string;
  picksheetCode?: string;
}

/**
 * Orders in the filter's scope; cancelled orders are not billed, and only fulfilled work is:
 * an order packed or shipped (ASN sent), so an Open or Picking order with no work done carries
 * no per-order fee (docs/decisions.md). Stored times are ISO 8601 UTC strings, so a day bound
 * compares as text and can use the column's index.
 */
export function invoiceOrders(db: Db, f: InvoiceFilter) {
  let query = db
    .selectFrom('orders as o')
    .where('o.facility_id', 'in', [...f.facilityIds])
    .where('o.status', '<>', 'Cancelled')
    .where((eb) => eb.or([eb('o.packed_at', 'is not', null), eb('o.asn_sent_at', 'is not', null)]));
  if (f.userBrandId !== null) query = query.where('o.brand_id', '=', f.userBrandId);
  if (f.brandId) query = query.where('o.brand_id', '=', f.brandId);
  if (f.retailerId) query = query.where('o.retailer_id', '=', f.retailerId);
  if (f.transportationMethod) {
    query = query.where(sql`upper(o.transportation_method)`, '=', f.transportationMethod);
  }
  if (f.asnSentFrom) query = query.where('o.asn_sent_at', '>=', f.asnSentFrom);
  if (f.asnSentBefore) query = query.where('o.asn_sent_at', '<', f.asnSentBefore);
  if (f.packedFrom) query = query.where('o.packed_at', '>=', f.packedFrom);
  if (f.packedBefore) query = query.where('o.packed_at', '<', f.packedBefore);
  if (f.orderId) query = query.where('o.id', '=', f.orderId);
  if (f.picksheetCode) query = query.where('o.picksheet_code', '=', f.picksheetCode);
  return query;
}

/**
 * The same scope and filters as invoiceOrders, on the order columns copied into a totals table
 * (order_billing_totals `t` or order_action_totals `a`), so an invoice scans the totals alone.
 */
function totalsInScope(alias: 't' | 'a', f: InvoiceFilter) {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const ids = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`));
  const conditions = [
    sql`${column('facility_id')} IN (${ids(f.facilityIds)})`,
    sql`${column('status')} <> 'Cancelled'`,
    sql`(${column('packed_at')} IS NOT NULL OR ${column('asn_sent_at')} IS NOT NULL)`,
  ];
  if (f.userBrandId !== null) conditions.push(sql`${column('brand_id')} = ${f.userBrandId}`);
  if (f.brandId) conditions.push(sql`${column('brand_id')} = ${f.brandId}`);
  if (f.retailerId) conditions.push(sql`${column('retailer_id')} = ${f.retailerId}`);
  if (f.transportationMethod) {
    conditions.push(sql`upper(${column('transportation_method')}) = ${f.transportationMethod}`);
  }
  if (f.asnSentFrom) conditions.push(sql`${column('asn_sent_at')} >= ${f.asnSentFrom}`);
  if (f.asnSentBefore) conditions.push(sql`${column('asn_sent_at')} < ${f.asnSentBefore}`);
  if (f.packedFrom) conditions.push(sql`${column('packed_at')} >= ${f.packedFrom}`);
  if (f.packedBefore) conditions.push(sql`${column('packed_at')} < ${f.packedBefore}`);
  if (f.orderId) conditions.push(sql`${column('order_id')} = ${f.orderId}`);
  if (f.picksheetCode) {
    conditions.push(
      sql`${column('order_id')} IN (SELECT id FROM orders WHERE picksheet_code = ${f.picksheetCode})`,
    );
  }
  return sql<SqlBool>`${sql.join(conditions, sql` AND `)}`;
}

const num = (value: unknown) => Number(value ?? 0);

/** The line metrics of invoices and the order_billing_totals column each sums. */
const TOTAL_COLUMNS = {
  Pallets: 'pallets',
  Cartons: 'cartons',
  Units: 'units',
  SKUs: 'skus',
  'Labels Generated': 'labels_generated',
  'Pallet Label Printed - QR Code': 'pallet_label_qr',
  'Pallet Label Printed - GS1 Label': 'pallet_label_gs1',
  'Pallet Label Printed - Placard': 'pallet_label_placard',
  'Carton Label Printed - GS1 Label': 'carton_label_gs1',
  'Carton Label Printed - QR Code': 'carton_label_qr',
  'Carton Label Printed - Parcel Label': 'carton_label_parcel',
  'VAS Actions': 'vas_actions',
  'Packing Slips': 'packing_slips',
} as const;

/**
 * Per brand, the count of every line metric over the orders in the filter's scope, from the
 * per-order totals (one row per order, kept by triggers: ./rollup.ts), in
 * one scan of them.
 */
export async function invoiceLineTotals(db: Db, f: InvoiceFilter) {
  if (f.facilityIds.length === 0) return [];
  const rows = await db
    .selectFrom('order_billing_totals as t')
    .where(totalsInScope('t', f))
    .groupBy('t.brand_id')
    .select([
      't.brand_id',
      sql<number>`count(*)`.as('Orders'),
      ...Object.entries(TOTAL_COLUMNS).map(([metric, column]) =>
        sql<number>`sum(${sql.ref(`t.${column}`)})`.as(metric),
      ),
    ])
    .execute();
  return rows.map(({ brand_id, ...counts }) => ({
    brandId: brand_id,
    counts: Object.fromEntries(
      Object.entries(counts).map(([metric, n]) => [metric, num(n)]),
    ) as Record<string, number>,
  }));
}

/** Per brand, each action's count (type and name as recorded) over the orders in scope. */
export async function invoiceActionTotals(db: Db, f: InvoiceFilter) {
  if (f.facilityIds.length === 0) return [];
  const rows = await db
    .selectFrom('order_action_totals as a')
    .where(totalsInScope('a', f))
    .groupBy(['a.brand_id', 'a.action_type', 'a.metric'])
    .select(['a.brand_id', 'a.action_type', 'a.metric', sql<number>`sum(a.count)`.as('count')])
    .execute();
  return rows.map((row) => ({ ...row, kind: 'ACTION', count: num(row.count) }));
}

/** One page of orders for invoice order details, newest first, and how many match. */
export async function invoiceOrderPage(
  db: Db,
  f: InvoiceFilter,
  page: { limit: number; offset: number },
) {
  if (f.facilityIds.length === 0) return { total: 0, rows: [] };
  const [count, rows] = await Promise.all([
    invoiceOrders(db, f)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow(),
    invoiceOrders(db, f)
      .innerJoin('brands as b', 'b.id', 'o.brand_id')
      .innerJoin('retailers as r', 'r.id', 'o.retailer_id')
      .select(['o.id', 'o.picksheet_code', 'o.brand_id', 'b.name as brand', 'r.name as retailer'])
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return { total: num(count.n), rows };
}
