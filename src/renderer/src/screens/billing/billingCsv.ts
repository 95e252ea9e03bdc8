import Papa from 'papaparse';
import type { Invoice, InvoiceOrderDetail } from '../../../../shared/billing';
import { BILLED_WORK_RULE, CORE_COLUMNS, csvDollars, metricLabel } from './billingFormat';

const CSV_OPTIONS = { escapeFormulae: true, newline: '\r\n' };

/**
 * CSV text as the inventory error report writes it (CRLF, formula-like values escaped), after a
 * first line stating which orders the bill counts, so the file says it without the screen.
 */
function csvOf(fields: string[], rows: string[][]): string {
  const rule = Papa.unparse([[BILLED_WORK_RULE]], CSV_OPTIONS);
  return `${rule}\r\n${Papa.unparse({ fields, data: rows }, CSV_OPTIONS)}\r\n`;
}

export const SUMMARY_CSV_FIELDS = [
  'Brand',
  'Line',
  'Action type',
  'Metric',
  'Count',
  'Unit price (USD)',
  'Amount (USD)',
];

/** The billing summary: every priced line and action of each brand, its total, and the total. */
export function summaryCsv(invoice: Invoice): string {
  const rows: string[][] = [];
  for (const brand of invoice.brands) {
    for (const line of brand.line_items) {
      rows.push([
        brand.brand_name,
        'Metric',
        '',
        metricLabel(line.metric),
        String(line.count),
        csvDollars(line.unit_price_dollars),
        csvDollars(line.price_dollars),
      ]);
    }
    for (const action of brand.action_items) {
      rows.push([
        brand.brand_name,
        'Action',
        action.type,
        action.metric,
        String(action.count),
        csvDollars(action.unit_price_dollars),
        csvDollars(action.price_dollars),
      ]);
    }
    rows.push([
      brand.brand_name,
      'Brand total',
      '',
      '',
      '',
      '',
      csvDollars(brand.total_price_dollars),
    ]);
  }
  rows.push(['All brands', 'Total', '', '', '', '', csvDollars(invoice.total_price_dollars)]);
  return csvOf(SUMMARY_CSV_FIELDS, rows);
}

type ActionGroup = 'carton_actions' | 'pallet_actions' | 'vas_actions';
const ACTION_GROUPS: { key: ActionGroup; label: string }[] = [
  { key: 'carton_actions', label: 'Carton Workflow' },
  { key: 'pallet_actions', label: 'Pallet Workflow' },
  { key: 'vas_actions', label: 'Value-added services' },
];

/** Every priced action the orders carry, by group then name, each once. */
export function actionColumnsOf(
  items: readonly InvoiceOrderDetail[],
): { group: ActionGroup; name: string; label: string }[] {
  return ACTION_GROUPS.flatMap(({ key, label }) => {
    const names = new Set(items.flatMap((item) => Object.keys(item[key])));
    return [...names]
      .sort((a, b) => a.localeCompare(b))
      .map((name) => ({ group: key, name, label: `${label}: ${name}` }));
  });
}

/**
 * Per-order details: identifiers, every count, then one column per priced action. An action
 * another brand prices but this order's brand does not is left blank (0 means not done).
 */
export function orderDetailsCsv(items: readonly InvoiceOrderDetail[]): string {
  const actions = actionColumnsOf(items);
  const fields = [
    'Order ID',
    'Picksheet code',
    'Brand',
    'Retailer',
    ...CORE_COLUMNS.map((column) => column.label),
    ...actions.map((action) => action.label),
  ];
  const rows = items.map((item) => [
    item.order_id,
    item.picksheet_code,
    item.brand,
    item.retailer,
    ...CORE_COLUMNS.map((column) => String(item.core[column.key])),
    ...actions.map((action) => {
      const count = item[action.group][action.name];
      return count === undefined ? '' : String(count);
    }),
  ]);
  return csvOf(fields, rows);
}
