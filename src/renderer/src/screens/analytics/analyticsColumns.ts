import type { VisibilityState } from '@tanstack/react-table';

/** The analytics table's columns a clerk can hide or show, in table order. */
export const ANALYTICS_COLUMNS = [
  { id: 'order_status', label: 'Status' },
  { id: 'brand', label: 'Brand' },
  { id: 'retailer', label: 'Retailer' },
  { id: 'created_at', label: 'Created' },
  { id: 'packed_at', label: 'Packed' },
  { id: 'asn_sent_at', label: 'Shipped (ASN sent)' },
  { id: 'total_cartons', label: 'Cartons' },
  { id: 'total_pallets', label: 'Pallets' },
  { id: 'total_units', label: 'Units' },
  { id: 'total_labels', label: 'Labels' },
  { id: 'unique_labels', label: 'Unique labels' },
  { id: 'unique_sku_count', label: 'SKUs' },
  { id: 'total_vas_actions', label: 'Value-added services' },
] as const;
export type AnalyticsColumnId = (typeof ANALYTICS_COLUMNS)[number]['id'];

/** Where the workstation keeps the clerk's choice of columns. */
export const COLUMN_STORAGE_KEY = 'analytics.columns';

/** Shown unless the clerk asks: Created is hidden at first (the table is wide enough). */
export const DEFAULT_VISIBILITY: VisibilityState = { created_at: false };
