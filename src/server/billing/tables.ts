import type { OrderStatus } from '../../shared/orders';

/** Tables of billing prices per brand (./migrations). Money is integer cents. */
export interface BillingPricesTable {
  brand_id: string;
  /** An invoice line metric (src/shared/billing.ts INVOICE_LINE_METRICS). */
  metric: string;
  price_cents: number;
  updated_at: string;
}

export interface BillingActionPricesTable {
  brand_id: string;
  /** Carton Workflow | Pallet Workflow | VAS */
  action_type: string;
  /** The action's name, e.g. `Pack`. */
  metric: string;
  price_cents: number;
  updated_at: string;
}

/** Copies of the order's columns an invoice filters and groups by, kept by triggers on orders. */
export interface OrderInvoiceKeys {
  facility_id: string;
  brand_id: string;
  status: OrderStatus;
  retailer_id: string;
  transportation_method: string | null;
  asn_sent_at: string | null;
  packed_at: string | null;
}

/** Per-order totals, kept by triggers from the order's rows (./rollup.ts). */
export interface OrderBillingTotalsTable extends OrderInvoiceKeys {
  order_id: string;
  pallets: number;
  cartons: number;
  units: number;
  /** Distinct SKUs packed. */
  skus: number;
  labels_generated: number;
  pallet_label_qr: number;
  pallet_label_gs1: number;
  pallet_label_placard: number;
  carton_label_gs1: number;
  carton_label_qr: number;
  carton_label_parcel: number;
  vas_actions: number;
  packing_slips: number;
}

/** Per order and action (type and name as recorded), the summed count. */
export interface OrderActionTotalsTable extends OrderInvoiceKeys {
  order_id: string;
  action_type: string;
  metric: string;
  count: number;
}

export interface BillingTables {
  billing_prices: BillingPricesTable;
  billing_action_prices: BillingActionPricesTable;
  order_billing_totals: OrderBillingTotalsTable;
  order_action_totals: OrderActionTotalsTable;
}
