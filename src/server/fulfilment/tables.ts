/** Tables of fulfilment on the floor (./migrations). */
export interface SsccCountersTable {
  company_prefix: string;
  last_serial: number;
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

export interface AppSettingsTable {
  key: string;
  value_json: string;
  updated_at: string;
}

export interface FulfilmentTables {
  sscc_counters: SsccCountersTable;
  order_activity: OrderActivityTable;
  app_settings: AppSettingsTable;
}
