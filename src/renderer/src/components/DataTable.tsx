import {
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';
import { useState } from 'react';
import { HeaderCell, TableRows } from './TableParts';

export interface DataTableProps<T> {
  data: T[];
  // TanStack's own column type: cell value types differ per column.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  /** Names the table for assistive technology; shown above the table. */
  caption: string;
  getRowId: (row: T) => string;
  initialSorting?: SortingState;
  /** Columns (by id) shown or hidden; a column not named is shown. */
  columnVisibility?: VisibilityState;
}

/** A read-only table whose column headers are sort buttons. */
export function DataTable<T>({
  data,
  columns,
  caption,
  getRowId,
  initialSorting = [],
  columnVisibility,
}: DataTableProps<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const table = useReactTable({
    data,
    columns,
    state: { sorting, columnVisibility: columnVisibility ?? {} },
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
        <TableRows table={table} />
      </table>
    </div>
  );
}
