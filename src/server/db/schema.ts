import type { ColumnType, Generated } from 'kysely';
import type { BillingTables } from '../billing/tables';
import type { ClaimsTables } from '../claims/tables';
import type { FulfilmentTables } from '../fulfilment/tables';
import type { SyncTables } from '../sync/tables';
import type { TransactionsSearchTables } from '../transactions/tables';

/** Kysely table types. Timestamps are ISO 8601 UTC strings; JSON columns are TEXT. */
export interface OrganizationsTable {
  id: string;
  name: string;
}
export interface FacilitiesTable {
  id: string;
  organization_id: string;
  name: string;
  external_facility_code: string;
}
export interface BrandsTable {
  id: string;
  name: string;
  external_brand_code: string | null;
  /** GS1 company prefix (7-10 digits) for the SSCCs of this brand's cartons and pallets. */
  gs1_company_prefix: string | null;
}
export interface RetailersTable {
  id: string;
  name: string;
}
export interface BrandFacilitiesTable {
  brand_id: string;
  facility_id: string;
}
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  brand_id: string | null;
  /** The seed source (e.g. `demo:<digest>`) whose password the hash was made from or checked against. */
  seed_source: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface UserFacilitiesTable {
  user_id: string;
  facility_id: string;
}
export interface UserAdminTable {
  user_id: string;
  brand_id: string;
  facility_id: string;
}
export interface SignInFailuresTable {
  email: string;
  /** Attempts counted (before the password check) since the last success. */
  failures: number;
  /** Epoch ms of the last counted attempt. */
  last_attempt_at: number;
  /** Epoch ms until which attempts are refused without checking the password. */
  locked_until: number | null;
}
export interface ConnectionsTable {
  id: string;
  organization_id: string;
  brand_id: string;
  retailer_id: string;
  kind: 'EDI_846' | 'DIRECT_API';
  enabled: number;
  transport_json: string;
  edi_json: string | null;
  /** Last ISA13 / GS06 used; incremented in the same transaction that stores the interchange. */
  interchange_counter: Generated<number>;
  group_counter: Generated<number>;
  /** Who sends this connection's deliveries on a synced install: `central` or `workstation`. */
  sender: Generated<'central' | 'workstation'>;
}
export interface AdviceSnapshotsTable {
  id: string;
  brand_id: string;
  facility_id: string | null;
  user_id: string;
  items_json: string;
  item_count: number;
  created_at: string;
}
/** PENDING until the transport confirms; a crash leaves PENDING rows to resume. */
export type DeliveryStatus = 'PENDING' | 'SUCCESS' | 'FAILURE';
export interface AdviceDeliveriesTable {
  id: string;
  snapshot_id: string;
  connection_id: string | null;
  organization_id: string | null;
  retailer_id: string | null;
  kind: 'EDI_846' | 'DIRECT_API' | null;
  status: DeliveryStatus;
  document: string | null;
  content_type: string | null;
  file_name: string | null;
  interchange_control_number: number | null;
  error: string | null;
  attempts: Generated<number>;
  created_at: string;
  updated_at: string;
  /** When the background drainer sends it next; null when nothing is planned. */
  next_attempt_at: string | null;
  /** Background re-deliveries so far (the backoff grows with them). */
  auto_retries: Generated<number>;
  /** 1 once the drainer stopped: too many re-deliveries, or a newer snapshot replaces it. */
  given_up: Generated<number>;
  /** The one replica that sends this delivery: a device id, `central`, or null (standalone). */
  sender_id: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface TransactionsTable {
  transaction_id: string;
  action_type: string;
  action_type_label: string;
  brand_id: string | null;
  retailer_id: string | null;
  facility_id: string | null;
  order_id: string | null;
  carton_id: string | null;
  load_id: string | null;
  correlation_id: string | null;
  duration_ms: number;
  error_message: string | null;
  execution_status: 'SUCCESS' | 'FAILURE' | 'RETRY' | 'PENDING' | 'SKIP';
  request_method: string;
  request_url: string;
  request_payload: string | null;
  response_body: string | null;
  response_status: number | null;
  created_at: string;
  updated_at: string;
}

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
export interface PalletsTable {
  id: string;
  order_id: string;
  sscc: string | null;
  status: string;
  created_at: string;
  staged_by: string | null;
  staged_at: string | null;
  dim_unit: string | null;
  height: number | null;
  width: number | null;
  length: number | null;
  weight_unit: string | null;
  weight: number | null;
}
export interface CartonsTable {
  id: string;
  order_id: string;
  /** Null until the carton is put on a pallet. */
  pallet_id: string | null;
  sscc: string | null;
  created_at: string;
  packed_by: string | null;
  packing_complete_at: string | null;
  parcel_tracking_number: string | null;
  dim_unit: string | null;
  height: number | null;
  width: number | null;
  length: number | null;
  weight_unit: string | null;
  weight: number | null;
}
export interface CartonSkusTable {
  id: string;
  carton_id: string;
  sku: string;
  upc: string | null;
  quantity: number;
  /** JSON array of strings. */
  serial_numbers_json: ColumnType<string, string | undefined, string>;
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

/**
 * Every table. Features after orders declare theirs in their own schema-*.ts file, each an
 * interface of table name to row type, so their work does not collide here.
 */
export interface Database
  extends FulfilmentTables, TransactionsSearchTables, BillingTables, ClaimsTables, SyncTables {
  organizations: OrganizationsTable;
  facilities: FacilitiesTable;
  brands: BrandsTable;
  retailers: RetailersTable;
  brand_facilities: BrandFacilitiesTable;
  users: UsersTable;
  user_facilities: UserFacilitiesTable;
  user_admin: UserAdminTable;
  sign_in_failures: SignInFailuresTable;
  connections: ConnectionsTable;
  advice_snapshots: AdviceSnapshotsTable;
  advice_deliveries: AdviceDeliveriesTable;
  transactions: TransactionsTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  pallets: PalletsTable;
  cartons: CartonsTable;
  carton_skus: CartonSkusTable;
  order_idempotency: OrderIdempotencyTable;
  order_bol_versions: OrderBolVersionsTable;
}
