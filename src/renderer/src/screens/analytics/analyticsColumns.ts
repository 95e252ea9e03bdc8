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
  { id: 'total_vas_actions', label: 'VAS actions' },
] as const;
export type AnalyticsColumnId = (typeof ANALYTICS_COLUMNS)[number]['id'];

/** Column id → shown; the order number and the items toggle always show. */
export type ColumnVisibility = Partial<Record<AnalyticsColumnId, boolean>>;

/** Where the workstation keeps the clerk's choice of columns. */
export const COLUMN_STORAGE_KEY = 'analytics.columns';

const KNOWN: ReadonlySet<string> = new Set(ANALYTICS_COLUMNS.map((column) => column.id));

/** Stored choices, keeping only known columns with true/false; anything else is the default. */
export function readColumnVisibility(stored: string | null): ColumnVisibility {
  if (stored === null) return {};
  try {
    const parsed: unknown = JSON.parse(stored);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(([key, value]) => KNOWN.has(key) && typeof value === 'boolean'),
    ) as ColumnVisibility;
  } catch {
    return {};
  }
}

/** Shown unless the clerk asks: Created is hidden at first (the table is wide enough). */
export const DEFAULT_VISIBILITY: ColumnVisibility = { created_at: false };

/** The clerk's stored choices over the defaults. */
export function columnVisibilityOf(stored: string | null): ColumnVisibility {
  return { ...DEFAULT_VISIBILITY, ...readColumnVisibility(stored) };
}
