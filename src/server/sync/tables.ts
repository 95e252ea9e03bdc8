import type { Generated } from 'kysely';

/** Tables of sync (./migrations; docs/sync.md). */
export interface SyncStateTable {
  id: number;
  device_id: string;
  acked_seq: Generated<number>;
  cursor: string | null;
  last_push_at: string | null;
  last_pull_at: string | null;
}

export interface SyncCaptureTable {
  id: Generated<number>;
  tbl: string;
  op: 'I' | 'U' | 'D';
  row_key: string;
  old_json: string | null;
  new_json: string | null;
  base_version: number | null;
}

export interface SyncMutationsTable {
  client_id: string;
  seq: number;
  name: string;
  args: string;
  base_version: number | null;
  at: string;
  outcome: 'applied' | 'partial' | 'rejected' | null;
  applied_version: number | null;
}

export interface SyncClientsTable {
  client_id: string;
  last_seq: Generated<number>;
  last_push_at: string | null;
  last_pull_at: string | null;
  /** The central's latest version when the device last pulled to the end (0016; null before). */
  pulled_version: number | null;
}

export interface SyncMetaTable {
  id: number;
  epoch: string;
}

export interface SyncRowVersionsTable {
  tbl: string;
  row_key: string;
  version: number;
  deleted: Generated<number>;
  facility_id: string | null;
  order_id: string | null;
  src_rowid: number | null;
}

export interface SyncEvictionsTable {
  version: number;
  facility_id: string;
  order_id: string;
}

export interface SyncConflictsTable {
  id: string;
  client_id: string;
  seq: number;
  mutation: string;
  order_id: string | null;
  facility_id: string | null;
  /** The refused order's brand (null on conflicts recorded before it was kept). */
  brand_id: string | null;
  reason: string;
  fields_json: string;
  changes_json: string;
  status: Generated<'open' | 'resolved'>;
  resolution: 'keep_central' | 'apply_mine' | 'created_new' | null;
  created_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
  updated_at: string;
}

export interface DevicesTable {
  id: string;
  name: string;
  secret_hash: string;
  seed_source: string | null;
  created_at: string;
  disabled_at: string | null;
}

export interface DeviceFacilitiesTable {
  device_id: string;
  facility_id: string;
}

export interface SsccSerialBlocksTable {
  company_prefix: string;
  first_serial: number;
  last_serial: number;
  device_id: string;
  leased_at: string;
}

export type SsccSerialBlock = SsccSerialBlocksTable;

export interface SyncFileUploadsTable {
  device_id: string;
  sha256: string;
  order_id: string;
  size: number;
  uploaded_at: string;
}

export interface SyncTables {
  sscc_serial_blocks: SsccSerialBlocksTable;
  sync_state: SyncStateTable;
  sync_capture: SyncCaptureTable;
  sync_mutations: SyncMutationsTable;
  sync_clients: SyncClientsTable;
  sync_meta: SyncMetaTable;
  sync_row_versions: SyncRowVersionsTable;
  sync_evictions: SyncEvictionsTable;
  sync_conflicts: SyncConflictsTable;
  devices: DevicesTable;
  device_facilities: DeviceFacilitiesTable;
  sync_file_uploads: SyncFileUploadsTable;
}
