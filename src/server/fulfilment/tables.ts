import type { ColumnType } from 'kysely';

/** Tables of fulfilment on the floor (./migrations). */
export interface SsccCountersTable {
  company_prefix: string;
  last_serial: number;
}

export interface AppSettingsTable {
  key: string;
  value_json: string;
  updated_at: string;
}

export interface FulfilmentTables {
  sscc_counters: SsccCountersTable;
  app_settings: AppSettingsTable;
  pallets: PalletsTable;
  cartons: CartonsTable;
  carton_skus: CartonSkusTable;
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
