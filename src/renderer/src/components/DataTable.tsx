import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type Header,
  type SortingState,
} from '@tanstack/react-table';
import { useState } from 'react';

export interface DataTableProps<T> {
  data: T[];
  // TanStack's own column type: cell value types differ per column.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  /** Names the table for assistive technology; shown above the table. */
  caption: string;
  getRowId: (row: T) => string;
  initialSorting?: SortingState;
}

function SortIndicator({ direction }: { direction: false | 'asc' | 'desc' }) {
  const symbol = direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕';
  return (
    <span className={`sort-indicator${direction ? ' active' : ''}`} aria-hidden="true">
      {symbol}
    </span>
  );
}

function HeaderCell<T>({ header }: { header: Header<T, unknown> }) {
  if (header.isPlaceholder) return <th scope="col" />;
  const label = flexRender(header.column.columnDef.header, header.getContext());
  if (!header.column.getCanSort()) return <th scope="col">{label}</th>;

  const direction = header.column.getIsSorted();
  return (
    <th
      scope="col"
      aria-sort={
        direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined
      }
    >
      <button
        type="button"
        className="sort-button"
        onClick={header.column.getToggleSortingHandler()}
      >
        {label}
        <SortIndicator direction={direction} />
      </button>
    </th>
  );
}

/** A read-only table whose column headers are sort buttons. */
export function DataTable<T>({
  data,
  columns,
  caption,
  getRowId,
  initialSorting = [],
}: DataTableProps<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    enableSortingRemoval: false,
  });

  return (
    <div className="table-scroll">
      <table className="data-table">
        <caption>{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <HeaderCell key={header.id} header={header} />
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
