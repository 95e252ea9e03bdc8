import { matchColumns, missingRequiredFields, type ColumnMatch, type ItemField } from './columns';

/** One request item as read from the file: only the fields that had a value, uncoerced. */
export type RowInput = Partial<Record<ItemField, unknown>>;

export interface ParsedSheet {
  /** Where the rows came from, e.g. the file name or "Pasted rows". */
  source: string;
  columns: ColumnMatch;
  items: RowInput[];
}

export type SheetResult = { ok: true; sheet: ParsedSheet } | { ok: false; message: string };

const isBlank = (cell: unknown) =>
  cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');

/** A spreadsheet date as the YYYY-MM-DD the interface wants (spreadsheet dates are UTC). */
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The value sent for a cell. Text stays text and numbers stay numbers so the shared schema applies
 * the real coercion rules ("5.5" is rejected, 5.5 is rounded down). Only what a spreadsheet does
 * to a value is undone: a numeric SKU becomes its text, a date cell becomes YYYY-MM-DD.
 */
function cellValue(field: ItemField, cell: unknown): unknown {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? String(cell) : dayOf(cell);
  if (field === 'sku' && typeof cell === 'number') return String(cell);
  return cell;
}

function describeMissing(missing: ItemField[], columns: ColumnMatch) {
  const names = missing.join(' and ');
  const found = [...Object.values(columns.headers), ...columns.ignored];
  return (
    `No ${names} column found (columns: ${found.join(', ')}). ` +
    'The first row must name the columns, e.g. "sku" (or "item number") and "available_quantity" (or "qty").'
  );
}

/** Rows of cells (first non-empty row = headers) to request items; `source` names them in the UI. */
export function sheetFromTable(
  table: readonly (readonly unknown[])[],
  source: string,
): SheetResult {
  const rows = table.filter((row) => row.some((cell) => !isBlank(cell)));
  const [headerRow, ...dataRows] = rows;
  if (!headerRow) return { ok: false, message: 'There are no rows to read.' };
  const columns = matchColumns(headerRow);
  const missing = missingRequiredFields(columns);
  if (missing.length > 0) return { ok: false, message: describeMissing(missing, columns) };
  if (dataRows.length === 0) {
    return { ok: false, message: 'There is a header row but no rows of stock below it.' };
  }
  const fields = Object.entries(columns.indexes) as [ItemField, number][];
  const items = dataRows.map((row) => {
    const item: RowInput = {};
    for (const [field, index] of fields) {
      const cell = row[index];
      if (!isBlank(cell)) item[field] = cellValue(field, cell);
    }
    return item;
  });
  return { ok: true, sheet: { source, columns, items } };
}
