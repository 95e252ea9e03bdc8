import { sql } from 'kysely';
import { ORDER_TIMESTAMP_FIELDS } from '../../shared/orders';
import type { CartonsTable, OrderItemsTable, OrdersTable, PalletsTable } from '../db/schema';

/*
 * What an order document holds (./read-queries.ts findOrderDocument): the columns each engine's
 * JSON query (./order-document-sql.ts, ./order-document-sql.postgres.ts) puts in it.
 */

/** `'a', t.a, 'b', t.b, …`: json_object arguments for columns of one table alias. */
export const pairsOf = (alias: string, columns: readonly string[]) =>
  sql.join(columns.map((column) => sql`${sql.lit(column)}, ${sql.ref(`${alias}.${column}`)}`));

export const ORDER_TEXT_COLUMNS = [
  'id',
  'picksheet_code',
  'external_order_id',
  'po_number',
  'brand_id',
  'retailer_id',
  'facility_id',
  'status',
  'transportation_method',
  'bill_of_lading_number',
  'pro_number',
  'carrier',
  'carrier_alpha_code',
  'service_method',
  'parcel_account_number',
  'parcel_billing_type',
  'external_load_number',
  'dept_number',
  'purchase_order_type',
] as const satisfies readonly (keyof OrdersTable)[];

/** Every stored date and time of an order (the body's dates, step times, shipped/cancelled). */
export const ORDER_TIME_COLUMNS = [
  ...ORDER_TIMESTAMP_FIELDS,
  'shipped_at',
  'cancelled_at',
] as const satisfies readonly (keyof OrdersTable)[];

export const ITEM_COLUMNS = [
  'sku',
  'upc',
  'quantity',
  'case_pack_quantity',
  'case_barcode',
  'vendor_pn',
  'description',
] as const satisfies readonly (keyof OrderItemsTable)[];
const MEASURE_COLUMNS = ['dim_unit', 'height', 'width', 'length', 'weight_unit', 'weight'] as const;
export const PALLET_COLUMNS = [
  'id',
  'created_at',
  'staged_by',
  'staged_at',
  'sscc',
  'status',
  ...MEASURE_COLUMNS,
] as const satisfies readonly (keyof PalletsTable)[];
export const CARTON_COLUMNS = [
  'id',
  'sscc',
  'created_at',
  'packed_by',
  'packing_complete_at',
  'parcel_tracking_number',
  ...MEASURE_COLUMNS,
] as const satisfies readonly (keyof CartonsTable)[];

type Columns<T, K extends readonly (keyof T)[]> = { [C in K[number]]: T[C] };

/** The parsed document of one order, with the stored values as they are. */
export interface OrderDocument {
  order: Columns<OrdersTable, typeof ORDER_TEXT_COLUMNS> & {
    brand_name: string;
    external_brand_code: string | null;
    facility_name: string;
    external_facility_code: string;
    retailer_name: string;
  };
  times: Columns<OrdersTable, typeof ORDER_TIME_COLUMNS>;
  address: {
    ship_to_contact: Record<string, unknown> | null;
    bill_to_contact: Record<string, unknown> | null;
    mark_for_contact: Record<string, unknown> | null;
  };
  items: (Columns<OrderItemsTable, typeof ITEM_COLUMNS> & {
    trackers: unknown[] | null;
    pass_through: Record<string, unknown> | null;
  })[];
  pallets: (Columns<PalletsTable, typeof PALLET_COLUMNS> & {
    cartons: (Columns<CartonsTable, typeof CARTON_COLUMNS> & {
      skus: { sku: string; upc: string | null; serial_numbers: string[]; quantity: number }[];
    })[];
  })[];
}
