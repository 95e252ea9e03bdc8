import Papa from 'papaparse';
import { STOCK_STATUSES } from '../../../../shared/inventory';
import { clerkCellMessage, columnName, rowNumberOf, type MessageContext } from './clerkMessages';
import { ITEM_FIELDS, type ItemField } from './columns';
import type { RowCheck } from './rowCheck';

/** One problem cell, in table order (row, then column). */
export interface CellProblemEntry {
  index: number;
  field: ItemField;
  row: number;
  column: string;
  value: string;
  /** The clerk's messages for the cell, in order. */
  problems: string[];
}

const shown = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : String(value);

/** Every cell with a problem, in the order the table shows them. */
export function problemCells(check: RowCheck, context: MessageContext): CellProblemEntry[] {
  const { sheet } = context;
  return [...check.cells.keys()]
    .sort((a, b) => a - b)
    .flatMap((index) =>
      ITEM_FIELDS.flatMap((field) => {
        const messages = check.cells.get(index)?.[field];
        if (!messages?.length) return [];
        return [
          {
            index,
            field,
            row: rowNumberOf(sheet, index),
            column: columnName(sheet, field),
            value: shown(sheet.cells[index]?.[field]),
            problems: messages.map((m) => clerkCellMessage(m, index, field, context).text),
          },
        ];
      }),
    );
}

/** The cell after `current` (row index, field) in table order, wrapping to the first. */
export function nextProblem(
  cells: readonly CellProblemEntry[],
  current: { index: number; field: ItemField } | null,
): CellProblemEntry | null {
  if (cells.length === 0) return null;
  if (!current) return cells[0]!;
  const order = (entry: { index: number; field: ItemField }) =>
    entry.index * ITEM_FIELDS.length + ITEM_FIELDS.indexOf(entry.field);
  const at = order(current);
  return cells.find((entry) => order(entry) > at) ?? cells[0]!;
}

/**
 * The error report: one line per problem (row, column, value, problem), for fixing the file in
 * Excel. Values a spreadsheet would run as formulas (`=`, `+`, `-`, `@`) are escaped.
 */
export function errorReportCsv(cells: readonly CellProblemEntry[], general: readonly string[]) {
  const rows = cells.flatMap((cell) =>
    cell.problems.map((problem) => [String(cell.row), cell.column, cell.value, problem]),
  );
  for (const problem of general) rows.push(['', '', '', problem]);
  return `${Papa.unparse(
    { fields: ['row', 'column', 'value', 'problem'], data: rows },
    { escapeFormulae: true, newline: '\r\n' },
  )}\r\n`;
}

/** The template: the service's column names and one example row per kind of line. */
export function templateCsv(today: string): string {
  const year = Number(today.slice(0, 4)) + 1;
  return [
    'sku,available_quantity,status,estimated_back_in_stock_date',
    'EXAMPLE-TENT-2P,120,,',
    'EXAMPLE-STOVE-01,0,DISCONTINUED,',
    `EXAMPLE-LAMP-02,0,TEMPORARILY_UNAVAILABLE,${year}-03-31`,
    '',
  ].join('\r\n');
}

export const ACCEPTED_STATUSES = STOCK_STATUSES;
