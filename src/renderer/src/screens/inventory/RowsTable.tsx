import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getPaginationRowModel,
  useReactTable,
} from '@tanstack/react-table';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { STATUS_LABELS } from './cellRules';
import { ClerkText } from './ClerkText';
import { clerkCellMessage, columnName, rowNumberOf, type MessageContext } from './clerkMessages';
import { FIELD_LABELS, ITEM_FIELDS, type ItemField } from './columns';
import { downloadText } from './download';
import { plural } from '../../format/plural';
import { errorReportCsv, problemCells } from './problemList';
import type { RowCheck } from './rowCheck';
import type { ParsedSheet, RowInput } from './sheetRows';

export const PAGE_SIZE = 100;

/** A request to move focus to one cell (a new `serial` repeats the same cell). */
export interface CellFocusRequest {
  index: number;
  field: ItemField;
  serial: number;
}

interface TableRow {
  /** Zero-based position in the request (the service's row_index). */
  index: number;
  cells: RowInput;
  item: RowInput;
}

/** The id of a cell's input, so "next problem" can find it. */
export const cellInputId = (index: number, field: ItemField) => `rows-cell-${index}-${field}`;

const column = createColumnHelper<TableRow>();

function display(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return String(value);
}

/** How the screen read a cell, when that is not what the file says (`1,200` → 1200). */
function readingOf(field: ItemField, cell: unknown, item: unknown): string | null {
  if (cell === undefined || item === undefined || display(cell).trim() === display(item)) {
    return null;
  }
  if (field === 'available_quantity' && typeof item === 'number') return String(item);
  if (field === 'status' && typeof item === 'string' && item in STATUS_LABELS) {
    return STATUS_LABELS[item as keyof typeof STATUS_LABELS];
  }
  return null;
}

interface CellProps {
  row: TableRow;
  field: ItemField;
  check: RowCheck;
  context: MessageContext;
  onEdit: (index: number, field: ItemField, text: string) => void;
  onEnter: (index: number, field: ItemField) => void;
}

/**
 * A cell of a row with problems is an input: the clerk fixes it in place, and it is checked again
 * when they leave it or press Enter (Escape puts the value back).
 */
function EditableCell({ row, field, check, context, onEdit, onEnter }: CellProps) {
  const problems = check.cells.get(row.index)?.[field] ?? [];
  const text = display(row.cells[field]);
  const errorId = `${cellInputId(row.index, field)}-error`;
  const label = `${columnName(context.sheet, field)} in row ${rowNumberOf(context.sheet, row.index)}`;
  const commit = (value: string) => {
    if (value.trim() !== text.trim()) onEdit(row.index, field, value);
  };
  return (
    <>
      <input
        // A changed value (an edit, a new file) resets the input.
        key={text}
        id={cellInputId(row.index, field)}
        className="cell-input"
        defaultValue={text}
        aria-label={label}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={problems.length > 0 ? errorId : undefined}
        data-row-index={row.index}
        data-field={field}
        spellCheck={false}
        onBlur={(event) => commit(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit(event.currentTarget.value);
            onEnter(row.index, field);
          } else if (event.key === 'Escape') {
            event.currentTarget.value = text;
          }
        }}
      />
      {problems.length > 0 ? (
        <span id={errorId} className="cell-error">
          {problems.map((message) => (
            <ClerkText
              key={message}
              className="cell-problem"
              message={clerkCellMessage(message, row.index, field, context)}
            />
          ))}
        </span>
      ) : null}
    </>
  );
}

function ReadCell({ row, field }: { row: TableRow; field: ItemField }) {
  const reading = readingOf(field, row.cells[field], row.item[field]);
  return (
    <>
      <span className="cell-value">{display(row.cells[field])}</span>
      {reading ? <span className="cell-reading">read as {reading}</span> : null}
    </>
  );
}

function columnsFor(props: Omit<CellProps, 'row' | 'field'>) {
  return [
    column.accessor((row) => rowNumberOf(props.context.sheet, row.index), {
      id: 'row',
      header: 'Row',
    }),
    ...ITEM_FIELDS.map((field) =>
      column.display({
        id: field,
        header: FIELD_LABELS[field],
        cell: (info) =>
          props.check.cells.has(info.row.original.index) ? (
            <EditableCell row={info.row.original} field={field} {...props} />
          ) : (
            <ReadCell row={info.row.original} field={field} />
          ),
      }),
    ),
  ];
}

interface RowsTableProps {
  sheet: ParsedSheet;
  check: RowCheck;
  context: MessageContext;
  onEditCell: (index: number, field: ItemField, text: string) => void;
  /** Enter in a cell: go on to the next problem. */
  onNextProblem: () => void;
  focusRequest: CellFocusRequest | null;
}

/**
 * The rows read from the input, numbered as in the spreadsheet, each problem in its cell and
 * fixable there; 100 rows a page. Column widths are fixed, so a long message wraps inside its own
 * cell instead of squeezing the others.
 */
export function RowsTable({
  sheet,
  check,
  context,
  onEditCell,
  onNextProblem,
  focusRequest,
}: RowsTableProps) {
  const [onlyProblems, setOnlyProblems] = useState(false);
  const filterId = useId();
  const allRows = useMemo(
    () => sheet.cells.map((cells, index) => ({ index, cells, item: sheet.items[index] ?? {} })),
    [sheet],
  );
  const data = useMemo(
    () => (onlyProblems ? allRows.filter((row) => check.cells.has(row.index)) : allRows),
    [allRows, check, onlyProblems],
  );
  const columns = useMemo(
    () => columnsFor({ check, context, onEdit: onEditCell, onEnter: () => onNextProblem() }),
    [check, context, onEditCell, onNextProblem],
  );
  const table = useReactTable({
    data,
    columns,
    getRowId: (row) => String(row.index),
    getCoreRowModel: getCoreRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    // Edits and re-checks keep the page the clerk is on.
    autoResetPageIndex: false,
    initialState: { pagination: { pageIndex: 0, pageSize: PAGE_SIZE } },
  });
  const problemRows = check.cells.size;
  const pageCount = Math.max(table.getPageCount(), 1);
  const page = table.getState().pagination.pageIndex + 1;

  // "Next problem": show the page holding the cell, then focus it once it is rendered.
  // Only a new request moves focus; the rows are read as they are at that moment (an edit that
  // changes them must not move the page back). The table instance stays the same.
  const pendingFocus = useRef<CellFocusRequest | null>(null);
  const rowsNow = useRef(data);
  rowsNow.current = data;
  useEffect(() => {
    if (!focusRequest) return;
    const position = rowsNow.current.findIndex((row) => row.index === focusRequest.index);
    if (position < 0) return;
    pendingFocus.current = focusRequest;
    table.setPageIndex(Math.floor(position / PAGE_SIZE));
  }, [focusRequest, table]);
  useEffect(() => {
    const request = pendingFocus.current;
    if (!request) return;
    const input = document.getElementById(cellInputId(request.index, request.field));
    if (input instanceof HTMLInputElement) {
      pendingFocus.current = null;
      input.focus();
      input.select();
      input.scrollIntoView({ block: 'center' });
      return;
    }
    // On its page but no longer an input (fixed meanwhile): nothing to wait for.
    const position = data.findIndex((row) => row.index === request.index);
    if (Math.floor(position / PAGE_SIZE) === page - 1) pendingFocus.current = null;
  });
  // A page past the end (rows filtered away) goes back to the last page.
  useEffect(() => {
    if (page > pageCount) table.setPageIndex(pageCount - 1);
  }, [page, pageCount, table]);

  const downloadReport = () => {
    const cells = problemCells(check, context);
    const name = sheet.source.replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '-') || 'rows';
    downloadText(`${name}-problems.csv`, errorReportCsv(cells, check.general), 'text/csv');
  };

  return (
    <div className="rows">
      <div className="rows-toolbar">
        <p className={`rows-count${problemRows > 0 ? ' has-problems' : ''}`} role="status">
          {plural(sheet.cells.length, 'row')}, {problemRows} with problems
        </p>
        <div className="rows-tools">
          <div className="checkbox">
            <input
              id={filterId}
              type="checkbox"
              checked={onlyProblems}
              disabled={problemRows === 0 && !onlyProblems}
              onChange={(event) => setOnlyProblems(event.target.checked)}
            />
            <label htmlFor={filterId}>Show only rows with problems</label>
          </div>
          {problemRows > 0 || check.general.length > 0 ? (
            <button type="button" className="button" onClick={downloadReport}>
              Download error report (CSV)
            </button>
          ) : null}
        </div>
      </div>
      <p className="hint">
        Row numbers are the spreadsheet&apos;s. Fix a cell in its row: the row is checked again when
        you leave the cell or press Enter.
      </p>
      <div className="table-scroll">
        <table className="data-table rows-table">
          <caption>Rows from {sheet.source}</caption>
          <colgroup>
            <col className="col-row" />
            <col className="col-sku" />
            <col className="col-quantity" />
            <col className="col-status" />
            <col className="col-date" />
          </colgroup>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id} scope="col">
                    {flexRender(header.column.columnDef.header, header.getContext())}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id}>
                {row.getVisibleCells().map((cell) => {
                  const invalid =
                    cell.column.id !== 'row' &&
                    !!check.cells.get(row.original.index)?.[cell.column.id as ItemField];
                  return (
                    <td
                      key={cell.id}
                      aria-invalid={invalid || undefined}
                      className={invalid ? 'invalid' : undefined}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pageCount > 1 ? (
        <nav className="pagination" aria-label="Row pages">
          <button
            type="button"
            className="button"
            onClick={() => table.previousPage()}
            disabled={!table.getCanPreviousPage()}
          >
            Previous page
          </button>
          <span aria-live="polite">
            Page {page} of {pageCount}
          </span>
          <button
            type="button"
            className="button"
            onClick={() => table.nextPage()}
            disabled={!table.getCanNextPage()}
          >
            Next page
          </button>
        </nav>
      ) : null}
    </div>
  );
}
