import { MAX_QUANTITY, STOCK_STATUSES, type StockStatusValue } from '../../../../shared/inventory';

/**
 * How the screen reads a quantity or status cell before anything is sent. One rule for CSV, XLSX,
 * pasted rows and edited cells, and the service's rule for quantities (docs/decisions.md
 * "Quantity coercion") made stricter in one place: a fraction is refused, never rounded down.
 */
export type CellReading<T> = { ok: true; value: T } | { ok: false; problem: string };

const WHOLE = /^\d+$/;
/** `1,200` and `12,345,678`: groups of three after the first. */
const GROUPED = /^\d{1,3}(,\d{3})+$/;

export const QUANTITY_RULE =
  'Quantities are whole numbers from 0 to 999,999,999, written 1200 or 1,200. A fraction such as 7.5 or 3.0 is refused, never rounded.';

const formatNumber = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 20 });

/** A quantity cell (text or a spreadsheet number) as the whole number to send. */
export function readQuantity(cell: unknown): CellReading<number> {
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) return { ok: false, problem: 'is not a number' };
    if (!Number.isInteger(cell)) {
      return {
        ok: false,
        problem: `must be a whole number; ${formatNumber(cell)} has a fraction, and quantities are never rounded`,
      };
    }
    return inRange(cell);
  }
  if (typeof cell !== 'string') return { ok: false, problem: 'must be a whole number' };
  const text = cell.trim();
  if (WHOLE.test(text)) return inRange(Number(text));
  if (GROUPED.test(text)) return inRange(Number(text.replace(/,/g, '')));
  if (/^-\s*[\d,.]+$/.test(text)) return { ok: false, problem: `cannot be below 0 (“${text}”)` };
  if (/^[\d,]*\.\d*$/.test(text)) {
    return {
      ok: false,
      problem: `must be a whole number such as 7 or 1,200; “${text}” has a decimal point, and quantities are never rounded`,
    };
  }
  return { ok: false, problem: `must be a whole number such as 7 or 1,200; “${text}” is not` };
}

function inRange(quantity: number): CellReading<number> {
  if (quantity < 0) return { ok: false, problem: `cannot be below 0 (${formatNumber(quantity)})` };
  if (quantity > MAX_QUANTITY) {
    return { ok: false, problem: `must be at most 999,999,999 (${formatNumber(quantity)})` };
  }
  return { ok: true, value: quantity };
}

/** What each status word means on screen. */
export const STATUS_LABELS: Record<StockStatusValue, string> = {
  DISCONTINUED: 'Discontinued',
  TEMPORARILY_UNAVAILABLE: 'Temporarily unavailable',
};

/** Spellings read as a status, compared lower case with spaces, `_` and `-` as one space. */
const STATUS_SPELLINGS: Record<string, StockStatusValue> = {
  discontinued: 'DISCONTINUED',
  discontinue: 'DISCONTINUED',
  'no longer available': 'DISCONTINUED',
  'temporarily unavailable': 'TEMPORARILY_UNAVAILABLE',
  'temporary unavailable': 'TEMPORARILY_UNAVAILABLE',
  'temporarily not available': 'TEMPORARILY_UNAVAILABLE',
  'temp unavailable': 'TEMPORARILY_UNAVAILABLE',
  'temp unavail': 'TEMPORARILY_UNAVAILABLE',
  'temporarily out of stock': 'TEMPORARILY_UNAVAILABLE',
  'temp out of stock': 'TEMPORARILY_UNAVAILABLE',
  backorder: 'TEMPORARILY_UNAVAILABLE',
  backordered: 'TEMPORARILY_UNAVAILABLE',
  'back order': 'TEMPORARILY_UNAVAILABLE',
  'back ordered': 'TEMPORARILY_UNAVAILABLE',
};

/** Words that could mean either status: refused with a question rather than guessed. */
const AMBIGUOUS_STATUS = new Set(['unavailable', 'not available', 'out of stock', 'oos', 'na']);

/** The status spellings accepted, for the help text. */
export const STATUS_WORDS: Record<StockStatusValue, string[]> = {
  DISCONTINUED: ['Discontinued', 'Discontinue', 'No longer available'],
  TEMPORARILY_UNAVAILABLE: [
    'Temporarily unavailable',
    'Temp unavailable',
    'Temporarily out of stock',
    'Backordered',
  ],
};

const spellingKey = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_\-.]+/g, ' ')
    .trim();

/** A status cell as the service's word; empty means no status. */
export function readStatus(cell: unknown): CellReading<StockStatusValue | null> {
  if (cell === undefined || cell === null) return { ok: true, value: null };
  if (typeof cell !== 'string') return { ok: false, problem: statusProblem(String(cell)) };
  const text = cell.trim();
  if (text === '') return { ok: true, value: null };
  const upper = text.toUpperCase();
  if ((STOCK_STATUSES as readonly string[]).includes(upper)) {
    return { ok: true, value: upper as StockStatusValue };
  }
  const key = spellingKey(text);
  const known = STATUS_SPELLINGS[key];
  if (known) return { ok: true, value: known };
  if (AMBIGUOUS_STATUS.has(key)) {
    return {
      ok: false,
      problem: `“${text}” could mean Discontinued or Temporarily unavailable: write the one you mean`,
    };
  }
  return { ok: false, problem: statusProblem(text) };
}

const statusProblem = (text: string) =>
  `must be Discontinued or Temporarily unavailable, or empty; “${text}” is not a status`;
