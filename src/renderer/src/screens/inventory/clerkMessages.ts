import { MAX_SKU_LENGTH } from '../../../../shared/inventory';
import { FIELD_LABELS, type ItemField } from './columns';
import type { ParsedSheet } from './sheetRows';
import type { ClerkMessage } from '../../format/clerkMessage';
import { deliveryErrorWords } from '../../format/deliveryErrorWords';

/**
 * Messages for clerks. The service and the shared schema speak to developers ("Input should be
 * greater than or equal to 0"); the screen says which column and spreadsheet row, what is wrong
 * and what to write instead, and keeps the original text as the detail behind a toggle.
 */
export type { ClerkMessage };

/** What a cell message needs to name its place: the sheet, and who needs a status at 0. */
export interface MessageContext {
  sheet: Pick<ParsedSheet, 'columns' | 'cells' | 'rowNumbers'>;
  /** Retailers whose enabled direct feed needs a status at quantity 0, when known. */
  statusRetailers?: readonly string[];
}

/** How messages name a column the file does not name in words: "Quantity", not "Available quantity". */
const CLERK_NAMES: Record<ItemField, string> = { ...FIELD_LABELS, available_quantity: 'Quantity' };

/**
 * The column as the clerk's file names it (e.g. "Qty"), else the clerk's word for it. A machine
 * name such as the template's `available_quantity` is not a clerk's word: it reads "Quantity".
 */
export function columnName(sheet: Pick<ParsedSheet, 'columns'>, field: ItemField): string {
  const header = sheet.columns.headers[field]?.trim();
  // "sku" is an abbreviation: it reads "SKU" however the file writes it.
  if (header === undefined || /^skus?$/i.test(header) || /^\w+_\w+$/.test(header)) {
    return CLERK_NAMES[field];
  }
  return header;
}

/** The spreadsheet row number of row `index` (the number the table shows). */
export function rowNumberOf(sheet: Pick<ParsedSheet, 'rowNumbers'>, index: number): number {
  return sheet.rowNumbers[index] ?? index + 2;
}

/** A sentence starts with a capital even when the file's header does not ("qty in row 2"). */
export const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const quote = (value: unknown) =>
  value === undefined || value === null ? 'empty' : `“${String(value)}”`;

const joinNames = (names: readonly string[]) =>
  names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

type Rewrite = (
  match: RegExpExecArray,
  place: { column: string; row: number; value: unknown },
  context: MessageContext,
) => string;

/** Original message patterns (shared schema and service) and how a clerk reads them. */
const REWRITES: [RegExp, Rewrite][] = [
  [/^Field required$/, (_m, p) => `${p.column} in row ${p.row} is empty: every row needs one.`],
  [
    /^Input should be greater than or equal to 0$/,
    (_m, p) => `${p.column} in row ${p.row} is below 0 (${quote(p.value)}): use 0 or more.`,
  ],
  [
    /^Input should be a whole number, or a string holding a whole number$/,
    (_m, p) =>
      `${p.column} in row ${p.row} must be a whole number such as 7 or 1,200; ${quote(p.value)} is not.`,
  ],
  [
    /^Input should be less than or equal to (\d+)$/,
    (_m, p) => `${p.column} in row ${p.row} is too large: at most 999,999,999.`,
  ],
  [/^Input should be a valid string$/, (_m, p) => `${p.column} in row ${p.row} must be text.`],
  [
    /^SKU must not be empty$/,
    (_m, p) => `${p.column} in row ${p.row} is empty: every row needs one.`,
  ],
  [
    /^SKU must be at most \d+ characters$/,
    (_m, p) =>
      `${p.column} in row ${p.row} is ${String(p.value ?? '').trim().length} characters long; retailers accept at most ${MAX_SKU_LENGTH}.`,
  ],
  [
    /^SKU must not contain .*characters/i,
    (_m, p) =>
      `${p.column} in row ${p.row} holds characters retailers cannot receive: use plain letters, digits and punctuation.`,
  ],
  [
    /^Input should be 'DISCONTINUED' or 'TEMPORARILY_UNAVAILABLE'$/,
    (_m, p) =>
      `${p.column} in row ${p.row} must be Discontinued or Temporarily unavailable, or empty; ${quote(p.value)} is not a status.`,
  ],
  [
    /^Input should be a valid date in the format YYYY-MM-DD$/,
    (_m, p) =>
      `${p.column} in row ${p.row} must be a date written year-month-day, e.g. 2030-12-31; ${quote(p.value)} is not.`,
  ],
  [
    /^Duplicate SKU '(.*)' \(first at row (\d+)\)$/s,
    (m, p, context) =>
      `${p.column} “${m[1]}” in row ${p.row} is already in row ${rowNumberOf(context.sheet, Number(m[2]))}: each SKU can be listed once.`,
  ],
  [
    /^status must be empty when available_quantity is greater than 0$/,
    (_m, p) =>
      `${p.column} in row ${p.row} must be empty: the quantity is above 0, so the item is in stock.`,
  ],
  [
    /^estimated_back_in_stock_date must be empty when available_quantity is greater than 0$/,
    (_m, p) =>
      `${p.column} in row ${p.row} must be empty: the quantity is above 0, so the item is in stock.`,
  ],
  [
    /^status is required when available_quantity is 0/,
    (_m, p, context) => {
      const who = context.statusRetailers?.length
        ? `${joinNames(context.statusRetailers)} ${context.statusRetailers.length === 1 ? 'gets' : 'get'} a direct feed`
        : 'a retailer gets a direct feed';
      return `${p.column} in row ${p.row} is needed: the quantity is 0 and ${who}, which must say why. Write Discontinued or Temporarily unavailable.`;
    },
  ],
  [
    /^estimated_back_in_stock_date is required when status is TEMPORARILY_UNAVAILABLE$/,
    (_m, p) =>
      `${p.column} in row ${p.row} is needed for a temporarily unavailable item: the date it is expected back, e.g. 2030-12-31.`,
  ],
  [
    /^estimated_back_in_stock_date must not be in the past$/,
    (_m, p) =>
      `${p.column} in row ${p.row} (${String(p.value)}) is in the past: use today or a later date.`,
  ],
];

/** A cell's problem (`message` as stored in the row check) in a clerk's words. */
export function clerkCellMessage(
  message: string,
  index: number,
  field: ItemField,
  context: MessageContext,
): ClerkMessage {
  const place = {
    column: columnName(context.sheet, field),
    row: rowNumberOf(context.sheet, index),
    value: context.sheet.cells[index]?.[field],
  };
  for (const [pattern, rewrite] of REWRITES) {
    const match = pattern.exec(message);
    if (match) return { text: sentence(rewrite(match, place, context)), detail: message };
  }
  return { text: message, detail: null };
}

/** The headline of a refused Preview or Send. */
export function clerkSummary(message: string): ClerkMessage {
  if (/^(846 )?Inventory advice validation failed$|^Validation failed$/i.test(message)) {
    return {
      text: 'The service found problems in some cells: they are marked in the table below. Fix them and try again.',
      detail: message,
    };
  }
  if (/^No inventory advice configuration found/.test(message)) {
    return {
      text: 'No retailer is connected to this brand at this facility, so there is nobody to send to.',
      detail: message,
    };
  }
  if (message === 'Unauthorized') {
    return {
      text: 'You are not an administrator for this brand at this facility, so you cannot send its stock.',
      detail: message,
    };
  }
  return deliveryErrorWords(message, 'file');
}
