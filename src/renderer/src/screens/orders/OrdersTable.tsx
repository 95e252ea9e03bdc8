import { Link } from '@tanstack/react-router';
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
} from '@tanstack/react-table';
import type { OrderListItem } from '../../../../shared/orders';
import { formatDate, formatShortTime } from './orderFormat';
import type { OrderSortField } from './orderSearch';

const column = createColumnHelper<OrderListItem>();
const NONE = '—';

/** Column ids that are also the service's sort fields get a sort button in their header. */
const columns = [
  column.accessor('picksheet_code', {
    id: 'picksheet_code',
    header: 'Picksheet',
    cell: (info) => (
      <Link to="/orders/$orderId" params={{ orderId: info.row.original.id }}>
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor('po_number', {
    id: 'po_number',
    header: 'PO number',
    cell: (info) => info.getValue() ?? NONE,
  }),
  column.accessor('status', { id: 'status', header: 'Status' }),
  column.accessor((row) => row.retailer.name, { id: 'retailer', header: 'Retailer' }),
  column.accessor((row) => row.brand.name, { id: 'brand', header: 'Brand' }),
  column.accessor((row) => row.facility.name, { id: 'facility', header: 'Facility' }),
  column.accessor('requested_ship_date', {
    id: 'requested_ship_date',
    header: 'Ship by',
    cell: (info) => formatDate(info.getValue()) ?? NONE,
  }),
  column.accessor('cancel_by_date', {
    id: 'cancel_by_date',
    header: 'Cancel by',
    cell: (info) => formatDate(info.getValue()) ?? NONE,
  }),
  column.accessor('total_units', { id: 'units', header: 'Units' }),
  column.accessor('created_at', {
    id: 'created_at',
    header: 'Created',
    cell: (info) => formatShortTime(info.getValue()),
  }),
];

const SORTABLE: ReadonlySet<string> = new Set<OrderSortField>([
  'created_at',
  'updated_at',
  'picksheet_code',
  'po_number',
  'status',
  'requested_ship_date',
  'cancel_by_date',
]);

export interface OrdersTableProps {
  orders: OrderListItem[];
  caption: string;
  sort: { field: OrderSortField; direction: 'asc' | 'desc' };
  onSort: (field: OrderSortField) => void;
  busy: boolean;
}

/** One page of orders; the service sorts, so a header click asks it again. */
export function OrdersTable({ orders, caption, sort, onSort, busy }: OrdersTableProps) {
  const table = useReactTable({
    data: orders,
    columns,
    getRowId: (row) => row.id,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
  });

  return (
    <div className="table-scroll" aria-busy={busy || undefined}>
      <table className="data-table orders-table">
        <caption>{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const label = flexRender(header.column.columnDef.header, header.getContext());
                if (!SORTABLE.has(header.id)) {
                  return (
                    <th key={header.id} scope="col">
                      {label}
                    </th>
                  );
                }
                const field = header.id as OrderSortField;
                const active = sort.field === field;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={
                      active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined
                    }
                  >
                    <button type="button" className="sort-button" onClick={() => onSort(field)}>
                      {label}
                      <span
                        className={`sort-indicator${active ? ' active' : ''}`}
                        aria-hidden="true"
                      >
                        {active ? (sort.direction === 'asc' ? '▲' : '▼') : '↕'}
                      </span>
                    </button>
                  </th>
                );
              })}
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
