import type { Insertable, Kysely } from 'kysely';
import { insertActivity, replaceOrderActivity, type ActivityRow } from './activity-queries';
import type {
  CartonSkusTable,
  CartonsTable,
  Database,
  OrderItemsTable,
  OrdersTable,
  PalletsTable,
} from '../db/schema';

type Trx = Kysely<Database>;

export interface SeedOrderRows {
  order: Insertable<OrdersTable>;
  items: Insertable<OrderItemsTable>[];
  pallets: Insertable<PalletsTable>[];
  cartons: Insertable<CartonsTable>[];
  cartonSkus: Insertable<CartonSkusTable>[];
  activity: ActivityRow[];
}

/** The stored order's creation time, if the order exists (an import without one keeps it). */
export async function findOrderCreatedAt(trx: Trx, orderId: string) {
  const row = await trx
    .selectFrom('orders')
    .select('created_at')
    .where('id', '=', orderId)
    .executeTakeFirst();
  return row?.created_at;
}

/** Another order holding this picksheet code at the facility, if any. */
export async function otherOrderWithPicksheet(
  trx: Trx,
  orderId: string,
  facilityId: string,
  picksheetCode: string,
) {
  const row = await trx
    .selectFrom('orders')
    .select('id')
    .where('facility_id', '=', facilityId)
    .where('picksheet_code', '=', picksheetCode)
    .where('id', '!=', orderId)
    .executeTakeFirst();
  return row?.id;
}

export async function brandWorksAtFacility(trx: Trx, brandId: string, facilityId: string) {
  const row = await trx
    .selectFrom('brand_facilities')
    .select('brand_id')
    .where('brand_id', '=', brandId)
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  return row !== undefined;
}

/** SQLite's limit of bound parameters per statement is 32766; chunks stay far below it. */
const ROWS_PER_INSERT = 200;

async function insertChunked<T extends 'order_items' | 'pallets' | 'cartons' | 'carton_skus'>(
  trx: Trx,
  table: T,
  rows: Insertable<Database[T]>[],
) {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await trx
      .insertInto(table)
      .values(rows.slice(start, start + ROWS_PER_INSERT) as never)
      .execute();
  }
}

/**
 * Upserts the order by id and replaces its lines, pallets, cartons and carton SKUs with the
 * given ones, and its recorded activity likewise (their ids are stable, so importing the same
 * bundle again writes the same rows).
 */
export async function replaceSeedOrder(trx: Trx, rows: SeedOrderRows) {
  const { id: _id, ...columns } = rows.order;
  await trx
    .insertInto('orders')
    .values(rows.order)
    .onConflict((oc) => oc.column('id').doUpdateSet(columns))
    .execute();
  // carton_skus go with their cartons (ON DELETE CASCADE).
  await trx.deleteFrom('cartons').where('order_id', '=', rows.order.id).execute();
  await trx.deleteFrom('pallets').where('order_id', '=', rows.order.id).execute();
  await trx.deleteFrom('order_items').where('order_id', '=', rows.order.id).execute();
  await insertChunked(trx, 'order_items', rows.items);
  await insertChunked(trx, 'pallets', rows.pallets);
  await insertChunked(trx, 'cartons', rows.cartons);
  await insertChunked(trx, 'carton_skus', rows.cartonSkus);
  await replaceOrderActivity(trx, rows.order.id, rows.activity.slice(0, ROWS_PER_INSERT));
  for (let start = ROWS_PER_INSERT; start < rows.activity.length; start += ROWS_PER_INSERT) {
    await insertActivity(trx, rows.activity.slice(start, start + ROWS_PER_INSERT));
  }
}
