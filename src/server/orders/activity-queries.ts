import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { OrderActivityTable } from './tables';

export type ActivityRow = Insertable<OrderActivityTable>;

/** Records label prints, packing slips and actions of orders (one row each, in the caller's transaction). */
export async function insertActivity(db: Kysely<Database>, rows: readonly ActivityRow[]) {
  if (rows.length === 0) return;
  await db
    .insertInto('order_activity')
    .values([...rows])
    .execute();
}

/** Replaces an order's recorded activity (seed import: the bundle's list is the whole truth). */
export async function replaceOrderActivity(
  db: Kysely<Database>,
  orderId: string,
  rows: readonly ActivityRow[],
) {
  await db.deleteFrom('order_activity').where('order_id', '=', orderId).execute();
  await insertActivity(db, rows);
}
