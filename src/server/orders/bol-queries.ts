import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/db';
import type { OrderBolVersionsTable, OrdersTable, TransactionsTable } from '../db/schema';

export type BolVersionRow = Selectable<OrderBolVersionsTable> & {
  uploaded_by_email: string | null;
};

/** The order columns a bill of lading sets. */
export type OrderBolFacts = Pick<
  Updateable<OrdersTable>,
  | 'bill_of_lading_number'
  | 'pro_number'
  | 'carrier'
  | 'carrier_alpha_code'
  | 'external_load_number'
  | 'scheduled_delivery_date'
>;

export interface BolUploadWrite {
  orderId: string;
  facts: OrderBolFacts;
  updatedAt: string;
  version: Omit<Insertable<OrderBolVersionsTable>, 'order_id' | 'version'>;
  log: Insertable<TransactionsTable>;
}

/**
 * The first write of an upload's transaction: it takes SQLite's write lock (a held lock is then
 * waited for, where a read first would be refused) and PostgreSQL's row lock, so what the upload
 * reads next is what it changes.
 */
export async function lockOrderForBolUpload(trx: Db, orderId: string, at: string): Promise<void> {
  await trx.updateTable('orders').set({ updated_at: at }).where('id', '=', orderId).execute();
}

/**
 * Records one upload (call inside a transaction): the order's BOL facts first, since in
 * PostgreSQL that update also locks the order row, so concurrent uploads number their versions
 * one after another; then the version row and the transaction-log row. Returns the version.
 */
export async function recordBolUpload(trx: Db, write: BolUploadWrite): Promise<number> {
  await trx
    .updateTable('orders')
    .set({ ...write.facts, updated_at: write.updatedAt })
    .where('id', '=', write.orderId)
    .execute();
  const latest = await trx
    .selectFrom('order_bol_versions')
    .select((eb) => eb.fn.max('version').as('version'))
    .where('order_id', '=', write.orderId)
    .executeTakeFirst();
  const version = (latest?.version ?? 0) + 1;
  await trx
    .insertInto('order_bol_versions')
    .values({ ...write.version, order_id: write.orderId, version })
    .execute();
  await trx.insertInto('transactions').values(write.log).execute();
  return version;
}

/** Every version of an order's bill of lading, newest first, with the uploader's current email. */
export function listBolVersions(db: Db, orderId: string): Promise<BolVersionRow[]> {
  return db
    .selectFrom('order_bol_versions as v')
    .leftJoin('users as u', 'u.id', 'v.uploaded_by')
    .selectAll('v')
    .select('u.email as uploaded_by_email')
    .where('v.order_id', '=', orderId)
    .orderBy('v.version', 'desc')
    .execute();
}

export function findBolVersion(db: Db, orderId: string, versionId: string) {
  return db
    .selectFrom('order_bol_versions')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('id', '=', versionId)
    .executeTakeFirst();
}
