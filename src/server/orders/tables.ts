/** Tables of orders: Kysely row types (timestamps are ISO 8601 UTC strings; JSON columns are TEXT). */
/** Order status; it moves forward only, or to Cancelled before shipping (DESIGN.md, Fulfilment). */
export type OrderStatusValue =
  'Open' | 'Picking' | 'Packed' | 'Staged' | 'Loaded' | 'Shipped' | 'Cancelled';

export interface OrdersTable {
  id: string;
  brand_id: string;
  retailer_id: string;
  facility_id: string;
  picksheet_code: string;
  po_number: string | null;
  external_order_id: string | null;
  dept_number: string | null;
  purchase_order_type: string | null;
  transportation_method: string | null;
  carrier: string | null;
  carrier_alpha_code: string | null;
  service_method: string | null;
  parcel_account_number: string | null;
  parcel_billing_type: string | null;
  bill_of_lading_number: string | null;
  pro_number: string | null;
  external_load_number: string | null;
  /** JSON of `address_data.ship_to_contact` (and likewise below); null when not given. */
  ship_to_json: string | null;
  bill_to_json: string | null;
  mark_for_json: string | null;
  /** Dates from the create body, YYYY-MM-DD. */
  requested_delivery_date: string | null;
  earliest_delivery_date: string | null;
  latest_delivery_date: string | null;
  earliest_ship_date: string | null;
  latest_ship_date: string | null;
  cancel_by_date: string | null;
  requested_ship_date: string | null;
  stage_by: string | null;
  status: OrderStatusValue;
  /** Timestamps, ISO 8601 UTC; null until the step happens. */
  created_at: string;
  updated_at: string;
  pickup_date: string | null;
  requested_pickup_date: string | null;
  scheduled_delivery_date: string | null;
  delivery_appointment_date: string | null;
  started_at: string | null;
  packed_at: string | null;
  staged_at: string | null;
  loaded_at: string | null;
  shipped_at: string | null;
  cancelled_at: string | null;
  parcel_print_start_time: string | null;
  parcel_print_end_time: string | null;
  asn_sent_at: string | null;
  invoice_sent_at: string | null;
  po_acknowledgment_sent_at: string | null;
}

export interface OrderItemsTable {
  id: string;
  order_id: string;
  /** Position in the body's `items`, from 0. */
  line_number: number;
  sku: string;
  upc: string | null;
  quantity: number;
  case_pack_quantity: number | null;
  case_barcode: string | null;
  vendor_pn: string | null;
  description: string | null;
  /** JSON array of trackers (update body); null when none were given. */
  trackers_json: string | null;
  /** JSON object of the item's `pass_through`; null when none was given. */
  pass_through_json: string | null;
}

/** The first answer to an order create per user and `Idempotency-Key`. */
export interface OrderIdempotencyTable {
  user_id: string;
  idempotency_key: string;
  /** SHA-256 of the canonical request body: a different body under the same key is refused. */
  request_hash: string;
  response_status: number;
  response_json: string;
  order_id: string | null;
  created_at: string;
}

/** One uploaded bill of lading of an order (a re-upload adds a version; none is replaced). */
export interface OrderBolVersionsTable {
  id: string;
  order_id: string;
  /** 1, 2, 3, ... per order, in commit order. */
  version: number;
  /** The file: `<data-dir>/documents/sha256/<sha256>.pdf`. */
  sha256: string;
  /** Sanitised; only shown and sent in Content-Disposition, never a path. */
  file_name: string;
  size: number;
  page_count: number;
  /** User id (kept when the user is deleted, so no foreign key). */
  uploaded_by: string;
  uploaded_at: string;
  bill_of_lading_number: string | null;
  pro_number: string | null;
  carrier: string | null;
  carrier_alpha_code: string | null;
  /** As sent: `YYYY-MM-DD HH:mm:ss`. */
  scheduled_delivery_date: string | null;
  external_load_number: string | null;
}

/** A label print, packing slip or priced action of an order (src/shared/fulfilment-activity.ts). */
export interface OrderActivityTable {
  id: string;
  order_id: string;
  kind: 'LABEL_PRINT' | 'PACKING_SLIP' | 'ACTION';
  action_type: string | null;
  metric: string;
  count: number;
  carton_id: string | null;
  pallet_id: string | null;
  sscc: string | null;
  user_id: string | null;
  created_at: string;
}

export interface OrdersTables {
  order_activity: OrderActivityTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  order_idempotency: OrderIdempotencyTable;
  order_bol_versions: OrderBolVersionsTable;
}
