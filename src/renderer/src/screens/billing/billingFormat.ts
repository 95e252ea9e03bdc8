import {
  CORE_COUNT_KEYS,
  LABEL_CORE_KEYS,
  type CoreCountKey,
  type InvoiceLineMetric,
} from '../../../../shared/billing';

/**
 * Which orders the bill counts (the service's rule, db/billing.ts invoiceOrders), said on the
 * screen and as the first line of each CSV export.
 */
export const BILLED_WORK_RULE =
  'Billed work: orders packed or shipped in the dates chosen; with no dates, every order packed or shipped so far. Orders never packed (Open, or Picking before their first Complete packing) and cancelled orders are not billed.';

/** Whole cents of a dollar amount (the service computes in cents; this undoes float noise). */
export function roundToCents(dollars: number): number {
  return Math.round(dollars * 100) / 100;
}

/** Dollars with cents in the workstation's locale: `$1,234.50`. */
export function formatDollars(dollars: number, locale?: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(roundToCents(dollars));
}

/** Dollars for a CSV cell: plain `1234.50`, which every spreadsheet reads as a number. */
export function csvDollars(dollars: number): string {
  return roundToCents(dollars).toFixed(2);
}

/** The invoice metric each per-order count is for, so both tables use the same words. */
const LABEL_OF_CORE = {
  pallets: 'Pallets',
  cartons: 'Cartons',
  units: 'Units',
  skus: 'SKUs',
  labels_generated: 'Labels Generated',
  vas_actions: 'VAS Actions',
  packing_slips: 'Packing Slips',
  ...Object.fromEntries(Object.entries(LABEL_CORE_KEYS).map(([metric, key]) => [key, metric])),
} as Record<CoreCountKey, InvoiceLineMetric>;

/**
 * A metric as the screen and the CSVs say it: the interface's names, except `VAS Actions`, which
 * a clerk reads as value-added services.
 */
export function metricLabel(metric: string): string {
  return metric === 'VAS Actions' ? 'Value-added services' : metric;
}

export function coreLabel(key: CoreCountKey): string {
  return metricLabel(LABEL_OF_CORE[key]);
}

export const CORE_COLUMNS = CORE_COUNT_KEYS.map((key) => ({ key, label: coreLabel(key) }));
