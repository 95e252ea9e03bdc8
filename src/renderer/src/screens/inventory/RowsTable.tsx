import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getPaginationRowModel,
  useReactTable,
} from '@tanstack/react-table';
import { useId, useMemo, useState } from 'react';
import { FIELD_LABELS, ITEM_FIELDS, type ItemField } from './columns';
import { plural } from './labels';
import type { RowCheck } from './rowCheck';
import type { RowInput } from './sheetRows';

export const PAGE_SIZE = 100;

interface TableRow {
  /** Zero-based position in the request (the service's row_index). */
  index: number;
  item: RowInput;
}

const column = createColumnHelper<TableRow>();

function display(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function FieldCell({ row, field, check }: { row: TableRow; field: ItemField; check: RowCheck }) {
  const problems = check.cells.get(row.index)?.[field];
  const text = display(row.item[field]);
  if (!problems) return <>{text}</>;
  return (
    <>
      <span className="cell-value">{text === '' ? <em>(empty)</em> : text}</span>
      <span className="cell-error">{problems.join(' ')}</span>
    </>
  );
}

function columnsFor(check: RowCheck) {
  return [
    column.accessor((row) => row.index + 1, { id: 'row', header: 'Row' }),
    ...ITEM_FIELDS.map((field) =>
      column.display({
        id: field,
        header: FIELD_LABELS[field],
        cell: (info) => <FieldCell row={info.row.original} field={field} check={check} />,
      }),
    ),
  ];
}

/** The rows read from the input, each problem shown in its cell; 100 rows a page. */
export function RowsTable({
  items,
  check,
  source,
}: {
  items: readonly RowInput[];
  check: RowCheck;
  source: string;
}) {
  const [onlyProblems, setOnlyProblems] = useState(false);
  const filterId = useId();
  const allRows = useMemo(() => items.map((item, index) => ({ index, item })), [items]);
  const data = useMemo(
    () => (onlyProblems ? allRows.filter((row) => check.cells.has(row.index)) : allRows),
    [allRows, check, onlyProblems],
  );
  const columns = useMemo(() => columnsFor(check), [check]);
  const table = useReactTable({
    data,
    columns,
    getRowId: (row) => String(row.index),
    getCoreRowModel: getCoreRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    initialState: { pagination: { pageIndex: 0, pageSize: PAGE_SIZE } },
  });
  const problemRows = check.cells.size;
  const pageCount = Math.max(table.getPageCount(), 1);
  const page = table.getState().pagination.pageIndex + 1;

  return (
    <div className="rows">
      <div className="rows-toolbar">
        <p className={`rows-count${problemRows > 0 ? ' has-problems' : ''}`} role="status">
          {plural(items.length, 'row')}, {problemRows} with problems
        </p>
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
      </div>
      <div className="table-scroll">
        <table className="data-table rows-table">
          <caption>Rows from {source}</caption>
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
