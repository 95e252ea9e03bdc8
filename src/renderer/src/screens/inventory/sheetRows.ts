import { readQuantity, readStatus } from './cellRules';
import { matchColumns, missingRequiredFields, type ColumnMatch, type ItemField } from './columns';

/** One row's cells by field: only the fields that had a value. */
export type RowInput = Partial<Record<ItemField, unknown>>;

export interface ParsedSheet {
  /** Where the rows came from, e.g. the file name or "Pasted rows". */
  source: string;
  columns: ColumnMatch;
  /** The cells as read (or as edited on screen): what the table shows and the report quotes. */
  cells: RowInput[];
  /** The request items: each cell read by the screen's rules (see `itemOf`). */
  items: RowInput[];
  /**
   * The spreadsheet row number of each row: the number Excel shows beside it, so the header is
   * row 1 when it is the first line. The table, the messages and the error report all use it.
   */
  rowNumbers: number[];
}

export type SheetResult = { ok: true; sheet: ParsedSheet } | { ok: false; message: string };

const isBlank = (cell: unknown) =>
  cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');

/** A spreadsheet date as the YYYY-MM-DD the interface wants (spreadsheet dates are UTC). */
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The cell as the clerk sees it. Only what a spreadsheet does to a value is undone: a numeric SKU
 * becomes its text, a date cell becomes YYYY-MM-DD.
 */
function cellValue(field: ItemField, cell: unknown): unknown {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? String(cell) : dayOf(cell);
  if (field === 'sku' && typeof cell === 'number') return String(cell);
  return cell;
}

/**
 * The request item for a row. A quantity or status the screen's rules read (`1,200`, `temp
 * unavailable`) is sent as the service's value; one they refuse is sent as it is, and the row is
 * blocked by its problem anyway, so nothing is ever rounded or guessed.
 */
export function itemOf(cells: RowInput): RowInput {
  const item: RowInput = { ...cells };
  if (cells.available_quantity !== undefined) {
    const quantity = readQuantity(cells.available_quantity);
    if (quantity.ok) item.available_quantity = quantity.value;
  }
  if (cells.status !== undefined) {
    const status = readStatus(cells.status);
    if (status.ok) {
      if (status.value === null) delete item.status;
      else item.status = status.value;
    }
  }
  return item;
}

function describeMissing(missing: ItemField[], columns: ColumnMatch) {
  const names = missing.join(' and ');
  const found = [...Object.values(columns.headers), ...columns.ignored];
  return (
    `No ${names} column found (columns: ${found.join(', ')}). ` +
    'The first row must name the columns, e.g. "sku" (or "item number") and "available_quantity" (or "qty").'
  );
}

/**
 * Rows of cells (first non-empty row = headers) to request items; `source` names them in the UI.
 * `table[i]` is spreadsheet row i + 1: blank rows are skipped but keep their numbers.
 */
export function sheetFromTable(
  table: readonly (readonly unknown[])[],
  source: string,
): SheetResult {
  const rows = table.flatMap((row, index) =>
    row.some((cell) => !isBlank(cell)) ? [{ row, number: index + 1 }] : [],
  );
  const [header, ...dataRows] = rows;
  if (!header) return { ok: false, message: 'There are no rows to read.' };
  const columns = matchColumns(header.row);
  const missing = missingRequiredFields(columns);
  if (missing.length > 0) return { ok: false, message: describeMissing(missing, columns) };
  if (dataRows.length === 0) {
    return { ok: false, message: 'There is a header row but no rows of stock below it.' };
  }
  const fields = Object.entries(columns.indexes) as [ItemField, number][];
  const cells = dataRows.map(({ row }) => {
    const values: RowInput = {};
    for (const [field, index] of fields) {
      const cell = row[index];
      if (!isBlank(cell)) values[field] = cellValue(field, cell);
    }
    return values;
  });
  return {
    ok: true,
    sheet: {
      source,
      columns,
      cells,
      items: cells.map(itemOf),
      rowNumbers: dataRows.map(({ number }) => number),
    },
  };
}

/** The sheet with one cell replaced by what the clerk typed (blank empties the cell). */
export function withCellEdit(
  sheet: ParsedSheet,
  index: number,
  field: ItemField,
  text: string,
): ParsedSheet {
  const row: RowInput = { ...sheet.cells[index] };
  if (text.trim() === '') delete row[field];
  else row[field] = text.trim();
  const cells = sheet.cells.map((old, i) => (i === index ? row : old));
  const items = sheet.items.map((old, i) => (i === index ? itemOf(row) : old));
  return { ...sheet, cells, items };
}
