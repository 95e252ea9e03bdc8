import { sql, type Insertable, type Selectable } from 'kysely';
import type { AuthUser } from '../core/context';
import type { Db } from '../db/db';
import { visibleFacilitiesQuery } from '../access';
import { visibleOrdersQuery } from '../orders';
import type { ChargebacksTable, PosRowsTable } from './tables';

/*
 * Chargebacks and POS rows belong to a brand and a retailer, not to a facility. A user sees those
 * of the brands working at the facilities it sees (narrowed to its own brand, for credentials
 * acting for one), like the brands lookup (endpoint 19) does.
 */

/** Ids of the brands the user sees: those working at its visible facilities. */
export async function listVisibleBrandIds(db: Db, user: AuthUser): Promise<string[]> {
  let query = visibleFacilitiesQuery(db, user)
    .innerJoin('brand_facilities as bf', 'bf.facility_id', 'f.id')
    .select('bf.brand_id')
    .distinct();
  if (user.brandId) query = query.where('bf.brand_id', '=', user.brandId);
  const rows = await query.orderBy('bf.brand_id').execute();
  return rows.map((row) => row.brand_id);
}

/**
 * Whether the retailer is or was associated with one of the brands: a connection ties them (in
 * any organisation, enabled or not), or a chargeback, POS row or order names both.
 */
export async function retailerLinkedToBrands(
  db: Db,
  retailerId: string,
  brandIds: readonly string[],
): Promise<boolean> {
  if (brandIds.length === 0) return false;
  const brands = [...brandIds];
  const linked = (table: 'connections' | 'chargebacks' | 'pos_rows' | 'orders') =>
    db
      .selectFrom(table)
      .select(sql<number>`1`.as('one'))
      .where('retailer_id', '=', retailerId)
      .where('brand_id', 'in', brands)
      .limit(1);
  const row = await db
    .selectNoFrom((eb) =>
      eb
        .or([
          eb.exists(linked('connections')),
          eb.exists(linked('chargebacks')),
          eb.exists(linked('pos_rows')),
          eb.exists(linked('orders')),
        ])
        .as('linked'),
    )
    .executeTakeFirstOrThrow();
  return Boolean(row.linked);
}

export interface ChargebackFilter {
  brandIds: readonly string[];
  retailerId?: string | undefined;
  poNumber?: string | undefined;
  chargebackId?: string | undefined;
  statuses?: readonly string[] | undefined;
  /** true: settled only; false: open only. */
  settled?: boolean | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  /** Today's date (YYYY-MM-DD): a deadline before it has passed. */
  today: string;
  settledStatuses: readonly string[];
}

/** Settled: a final status, or a deadline that has passed (the same rule as the domain's `closed`). */
const settledExpression = (filter: ChargebackFilter) =>
  sql<boolean>`(cb.dispute_status in (${sql.join([...filter.settledStatuses])})
    or (cb.dispute_deadline is not null and cb.dispute_deadline < ${filter.today}))`;

function filteredChargebacks(db: Db, filter: ChargebackFilter) {
  let query = db.selectFrom('chargebacks as cb').where('cb.brand_id', 'in', [...filter.brandIds]);
  if (filter.retailerId) query = query.where('cb.retailer_id', '=', filter.retailerId);
  if (filter.poNumber !== undefined) query = query.where('cb.po_number', '=', filter.poNumber);
  if (filter.chargebackId !== undefined) {
    query = query.where('cb.chargeback_id', '=', filter.chargebackId);
  }
  if (filter.statuses?.length) query = query.where('cb.dispute_status', 'in', [...filter.statuses]);
  if (filter.startDate) query = query.where('cb.chargeback_date', '>=', filter.startDate);
  if (filter.endDate) query = query.where('cb.chargeback_date', '<=', filter.endDate);
  if (filter.settled !== undefined) {
    const settled = settledExpression(filter);
    query = query.where(filter.settled ? settled : sql<boolean>`not ${settled}`);
  }
  return query;
}

export async function countChargebacks(db: Db, filter: ChargebackFilter): Promise<number> {
  if (filter.brandIds.length === 0) return 0;
  const row = await filteredChargebacks(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export type ChargebackRow = Selectable<ChargebacksTable> & { retailer_name: string };

/** One page, newest first: by chargeback date, then upload time, then id (a stable order). */
export async function listChargebacks(
  db: Db,
  filter: ChargebackFilter,
  page: { limit: number; offset: number },
): Promise<ChargebackRow[]> {
  if (filter.brandIds.length === 0) return [];
  return filteredChargebacks(db, filter)
    .innerJoin('retailers as r', 'r.id', 'cb.retailer_id')
    .selectAll('cb')
    .select('r.name as retailer_name')
    .orderBy('cb.chargeback_date', 'desc')
    .orderBy('cb.uploaded_at', 'desc')
    .orderBy('cb.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** One chargeback of the given brands, or undefined. */
export function findChargeback(db: Db, id: string, brandIds: readonly string[]) {
  if (brandIds.length === 0) return Promise.resolve(undefined);
  return db
    .selectFrom('chargebacks as cb')
    .innerJoin('retailers as r', 'r.id', 'cb.retailer_id')
    .innerJoin('brands as b', 'b.id', 'cb.brand_id')
    .selectAll('cb')
    .select(['r.name as retailer_name', 'b.name as brand_name'])
    .where('cb.id', '=', id)
    .where('cb.brand_id', 'in', [...brandIds])
    .executeTakeFirst();
}

export interface PurchaseOrderKey {
  brand_id: string;
  retailer_id: string;
  po_number: string;
}

/** Orders the user sees whose brand, retailer and PO number are one of `keys`, oldest first. */
export async function findOrdersByPurchaseOrder(
  db: Db,
  user: AuthUser,
  keys: readonly PurchaseOrderKey[],
) {
  const poNumbers = [...new Set(keys.map((key) => key.po_number).filter((po) => po !== ''))];
  if (poNumbers.length === 0) return [];
  const rows = await visibleOrdersQuery(db, user)
    .select(['o.id', 'o.picksheet_code', 'o.po_number', 'o.brand_id', 'o.retailer_id'])
    .where('o.po_number', 'in', poNumbers)
    .where('o.brand_id', 'in', [...new Set(keys.map((key) => key.brand_id))])
    .orderBy('o.created_at')
    .orderBy('o.id')
    .execute();
  return rows;
}

export interface PosFilter {
  brandIds: readonly string[];
  retailerId?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

function filteredPosRows(db: Db, filter: PosFilter) {
  let query = db.selectFrom('pos_rows as p').where('p.brand_id', 'in', [...filter.brandIds]);
  if (filter.retailerId) query = query.where('p.retailer_id', '=', filter.retailerId);
  if (filter.startDate) query = query.where('p.start_date', '>=', filter.startDate);
  if (filter.endDate) query = query.where('p.end_date', '<=', filter.endDate);
  return query;
}

export async function countPosRows(db: Db, filter: PosFilter): Promise<number> {
  if (filter.brandIds.length === 0) return 0;
  const row = await filteredPosRows(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export type PosRowRecord = Selectable<PosRowsTable> & { retailer_name: string };

/** One page, newest period first (end date, then start date), then SKU, location and id. */
export async function listPosRows(
  db: Db,
  filter: PosFilter,
  page: { limit: number; offset: number },
): Promise<PosRowRecord[]> {
  if (filter.brandIds.length === 0) return [];
  return filteredPosRows(db, filter)
    .innerJoin('retailers as r', 'r.id', 'p.retailer_id')
    .selectAll('p')
    .select('r.name as retailer_name')
    .orderBy('p.end_date', 'desc')
    .orderBy('p.start_date', 'desc')
    .orderBy('p.sku')
    .orderBy('p.location')
    .orderBy('p.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The columns an import sets on a chargeback; absent ones keep the stored value on a re-import. */
export type ChargebackWrite = Insertable<ChargebacksTable>;

/**
 * Inserts a chargeback, or updates the one with the same natural key (brand, retailer, chargeback
 * number, PO number), keeping its id, upload time and creating import. `keep` names the columns a
 * re-import must not overwrite (those the file leaves empty). True when the row is new.
 */
export async function upsertChargebackByKey(
  trx: Db,
  row: ChargebackWrite,
  keep: readonly (keyof ChargebacksTable)[],
): Promise<boolean> {
  const fixed = new Set<string>(['id', 'uploaded_at', 'import_id', ...keep]);
  const update = Object.fromEntries(Object.entries(row).filter(([column]) => !fixed.has(column)));
  const stored = await trx
    .insertInto('chargebacks')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['brand_id', 'retailer_id', 'chargeback_id', 'po_number']).doUpdateSet(update),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return stored.id === row.id;
}

/** POS rows per statement (21 columns each, well under SQLite's variable limit). */
const POS_BATCH = 200;
const POS_METRIC_COLUMNS = [
  'units_sold',
  'revenue_cents',
  'cogs_cents',
  'returns',
  'net_units',
  'gross_margin_cents',
  'margin_percent',
  'inventory_units',
  'inventory_cost_cents',
  'damaged_inventory_units',
  'damaged_inventory_cost_cents',
  'on_order_units',
  'on_order_cost_cents',
  'updated_at',
] as const satisfies readonly (keyof PosRowsTable)[];

/**
 * Inserts POS rows, or updates the figures of those with the same natural key (brand, retailer,
 * sku, location, start and end date), keeping their id, upload time and creating import. Returns
 * how many rows were new.
 */
export async function upsertPosRowsByKey(
  trx: Db,
  rows: readonly Insertable<PosRowsTable>[],
  /** False for seed imports, so importing the same bundle again changes nothing. */
  touchUpdatedAt = true,
): Promise<number> {
  const columns = POS_METRIC_COLUMNS.filter((c) => touchUpdatedAt || c !== 'updated_at');
  let created = 0;
  for (let start = 0; start < rows.length; start += POS_BATCH) {
    const batch = rows.slice(start, start + POS_BATCH);
    const stored = await trx
      .insertInto('pos_rows')
      .values(batch)
      .onConflict((oc) =>
        oc
          .columns(['brand_id', 'retailer_id', 'sku', 'location', 'start_date', 'end_date'])
          .doUpdateSet((eb) =>
            Object.fromEntries(columns.map((column) => [column, eb.ref(`excluded.${column}`)])),
          ),
      )
      .returning('id')
      .execute();
    const ids = new Set(batch.map((row) => row.id));
    created += stored.filter((row) => ids.has(row.id)).length;
  }
  return created;
}

/** The id of a chargeback other than `id` with this natural key (a seed entry would clash with it). */
export async function otherChargebackWithKey(trx: Db, row: ChargebackWrite) {
  const found = await trx
    .selectFrom('chargebacks')
    .select('id')
    .where('brand_id', '=', row.brand_id)
    .where('retailer_id', '=', row.retailer_id)
    .where('chargeback_id', '=', row.chargeback_id)
    .where('po_number', '=', row.po_number ?? '')
    .where('id', '!=', row.id)
    .executeTakeFirst();
  return found?.id;
}

export async function otherPosRowWithKey(trx: Db, row: Insertable<PosRowsTable>) {
  const found = await trx
    .selectFrom('pos_rows')
    .select('id')
    .where('brand_id', '=', row.brand_id)
    .where('retailer_id', '=', row.retailer_id)
    .where('sku', '=', row.sku)
    .where('location', '=', row.location ?? '')
    .where('start_date', '=', row.start_date)
    .where('end_date', '=', row.end_date)
    .where('id', '!=', row.id)
    .executeTakeFirst();
  return found?.id;
}

/** Upsert by id for seed entries; the columns in `keep` are set on insert only. */
export async function upsertChargebackById(
  trx: Db,
  row: ChargebackWrite,
  keep: readonly (keyof ChargebacksTable)[],
): Promise<void> {
  const fixed = new Set<string>(['id', ...keep]);
  const update = Object.fromEntries(Object.entries(row).filter(([column]) => !fixed.has(column)));
  await trx
    .insertInto('chargebacks')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(update))
    .execute();
}

/** Upsert by id for seed entries; the upload and update times and the import are set on insert only. */
export async function upsertPosRowById(trx: Db, row: Insertable<PosRowsTable>): Promise<void> {
  const {
    id: _id,
    uploaded_at: _uploaded,
    updated_at: _updated,
    import_id: _import,
    ...rest
  } = row;
  await trx
    .insertInto('pos_rows')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(rest))
    .execute();
}
