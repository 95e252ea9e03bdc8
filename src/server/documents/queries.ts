import type { Db } from '../db/db';

/** SQL of the order documents (labels, packing slip, compliance report) and workstation settings. */

export interface LooseCartonRow {
  id: string;
  sscc: string | null;
  created_at: string;
  packing_complete_at: string | null;
  parcel_tracking_number: string | null;
  weight_unit: string | null;
  weight: number | null;
  skus: { sku: string; upc: string | null; quantity: number }[];
}

/**
 * Cartons of an order that are on no pallet (parcel orders, or freight not yet palletised),
 * oldest first, with their SKU lines. Order details (findOrderDocument) holds the others.
 */
export async function listLooseCartons(db: Db, orderId: string): Promise<LooseCartonRow[]> {
  const cartons = await db
    .selectFrom('cartons')
    .select([
      'id',
      'sscc',
      'created_at',
      'packing_complete_at',
      'parcel_tracking_number',
      'weight_unit',
      'weight',
    ])
    .where('order_id', '=', orderId)
    .where('pallet_id', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  if (cartons.length === 0) return [];
  const skus = await db
    .selectFrom('carton_skus')
    .select(['carton_id', 'sku', 'upc', 'quantity'])
    .where(
      'carton_id',
      'in',
      cartons.map((c) => c.id),
    )
    .orderBy('sku')
    .orderBy('id')
    .execute();
  return cartons.map((carton) => ({
    ...carton,
    skus: skus
      .filter((s) => s.carton_id === carton.id)
      .map(({ sku, upc, quantity }) => ({ sku, upc, quantity })),
  }));
}

/** How many bill-of-lading documents were uploaded to the order, and the latest one's number. */
export async function bolDocumentSummary(db: Db, orderId: string) {
  const rows = await db
    .selectFrom('order_bol_versions')
    .select(['version', 'bill_of_lading_number', 'file_name'])
    .where('order_id', '=', orderId)
    .orderBy('version', 'desc')
    .execute();
  return { count: rows.length, latest: rows[0] ?? null };
}

/** Whether the user holds an admin grant for any brand at any facility. */
export async function hasAnyAdminGrant(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_admin')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export function readSetting(db: Db, key: string) {
  return db
    .selectFrom('app_settings')
    .select(['value_json', 'updated_at'])
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Sets one workstation setting (insert or replace). */
export async function writeSetting(db: Db, key: string, valueJson: string, updatedAt: string) {
  await db
    .insertInto('app_settings')
    .values({ key, value_json: valueJson, updated_at: updatedAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ value_json: valueJson, updated_at: updatedAt }),
    )
    .execute();
}
