import type { ColumnType, Generated } from 'kysely';

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

export interface Database {
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
}
