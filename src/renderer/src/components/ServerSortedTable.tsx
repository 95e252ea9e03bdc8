import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { SortableHeader, TableRows } from './TableParts';

export interface ServerSortedTableProps<T, F extends string> {
  data: T[];
  // TanStack's own column type: cell value types differ per column.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  getRowId: (row: T) => string;
  /** Extra class of the table, e.g. `orders-table`. */
  className: string;
  caption: string;
  /** Column ids that are also the service's sort fields; they get a sort button. */
  sortable: ReadonlySet<string>;
  sort: { field: F; direction: 'asc' | 'desc' };
  onSort: (field: F) => void;
  busy: boolean;
}

/** One page of a list the service sorts and pages, so a header click asks it again. */
export function ServerSortedTable<T, F extends string>({
  data,
  columns,
  getRowId,
  className,
  caption,
  sortable,
  sort,
  onSort,
  busy,
}: ServerSortedTableProps<T, F>) {
  const table = useReactTable({
    data,
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
  });

  return (
    <div className="table-scroll" aria-busy={busy || undefined}>
      <table className={`data-table ${className}`}>
        <caption>{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const label = flexRender(header.column.columnDef.header, header.getContext());
                if (!sortable.has(header.id)) {
                  return (
                    <th key={header.id} scope="col">
                      {label}
                    </th>
                  );
                }
                const field = header.id as F;
                return (
                  <SortableHeader
                    key={header.id}
                    label={label}
                    direction={sort.field === field ? sort.direction : false}
                    onSort={() => onSort(field)}
                  />
                );
              })}
            </tr>
          ))}
        </thead>
        <TableRows table={table} />
      </table>
    </div>
  );
}
