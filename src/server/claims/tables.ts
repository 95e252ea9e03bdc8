/** Tables of chargebacks and POS report rows (./migrations). Money is integer cents. */
export interface ChargebacksTable {
  id: string;
  brand_id: string;
  retailer_id: string;
  /** The retailer's chargeback number; several chargebacks may share one. */
  chargeback_id: string;
  /** '' when the retailer gives none. */
  po_number: string;
  amount_cents: number;
  amount_won_back_cents: number;
  retailer_chargeback_code: string;
  category: string;
  description: string;
  /** YYYY-MM-DD. */
  chargeback_date: string;
  /** ISO 8601 UTC; set when the row is first stored, kept by re-imports. */
  uploaded_at: string;
  /** YYYY-MM-DD, or null when the retailer gives none. */
  dispute_deadline: string | null;
  dispute_status: string;
  /** The CSV import that created the row; null for seed rows. */
  import_id: string | null;
  updated_at: string;
}

export interface PosRowsTable {
  id: string;
  brand_id: string;
  retailer_id: string;
  sku: string;
  /** The store or location; '' when the report is not per store. */
  location: string;
  start_date: string;
  end_date: string;
  units_sold: number;
  revenue_cents: number;
  cogs_cents: number;
  returns: number;
  net_units: number;
  gross_margin_cents: number;
  margin_percent: number;
  inventory_units: number;
  inventory_cost_cents: number;
  damaged_inventory_units: number;
  damaged_inventory_cost_cents: number;
  on_order_units: number;
  on_order_cost_cents: number;
  /** The CSV import that created the row; null for seed rows. */
  import_id: string | null;
  uploaded_at: string;
  updated_at: string;
}

export interface ClaimsTables {
  chargebacks: ChargebacksTable;
  pos_rows: PosRowsTable;
}
