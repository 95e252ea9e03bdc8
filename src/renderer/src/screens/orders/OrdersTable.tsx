import { Link } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import type { OrderListItem } from '../../../../shared/orders';
import { ServerSortedTable } from '../../components/ServerSortedTable';
import { formatDate, formatShortTime } from '../../format/time';
import type { OrderSortField } from './orderSearch';
import { ShipByDay } from './ShipBy';

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
  // The latest ship date, else the requested one (the service works it out); late rows say so.
  column.accessor('ship_by', {
    id: 'ship_by',
    header: 'Ship by',
    cell: (info) => <ShipByDay day={info.getValue()} status={info.row.original.ship_by_status} />,
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
  'ship_by',
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
  return (
    <ServerSortedTable
      data={orders}
      columns={columns}
      getRowId={(row) => row.id}
      className="orders-table"
      caption={caption}
      sortable={SORTABLE}
      sort={sort}
      onSort={onSort}
      busy={busy}
    />
  );
}
