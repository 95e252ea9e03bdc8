import { Link } from '@tanstack/react-router';
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getExpandedRowModel,
  getSortedRowModel,
  useReactTable,
  type ExpandedState,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';
import { Fragment, useState } from 'react';
import type { AnalyticsV2Row } from '../../../../shared/analytics';
import { HeaderCell } from '../../components/TableParts';
import { formatCount, formatHttpDate, timeOfHttpDate } from './analyticsFormat';
import type { AnalyticsColumnId } from './analyticsColumns';

const column = createColumnHelper<AnalyticsV2Row>();

const timeColumn = (id: 'created_at' | 'packed_at' | 'asn_sent_at', header: string) =>
  column.accessor((row) => timeOfHttpDate(row[id]) ?? undefined, {
    id,
    header,
    cell: (info) => formatHttpDate(info.row.original[id]),
    sortUndefined: 'last',
    meta: { className: 'analytics-time' },
  });

type CountField = Extract<
  AnalyticsColumnId,
  | 'total_cartons'
  | 'total_pallets'
  | 'total_units'
  | 'total_labels'
  | 'unique_labels'
  | 'unique_sku_count'
  | 'total_vas_actions'
>;

const countColumn = (id: CountField, header: string) =>
  column.accessor((row) => row[id], {
    id,
    header,
    cell: (info) => formatCount(info.getValue()),
    sortDescFirst: true,
    meta: { className: 'numeric' },
  });

const columns = [
  column.display({
    id: 'expand',
    header: () => <span className="visually-hidden">Items</span>,
    cell: ({ row }) => (
      <button
        type="button"
        className="link-button"
        aria-label={`Items of ${row.original.order_number}`}
        aria-expanded={row.getIsExpanded()}
        aria-controls={`analytics-items-${row.id}`}
        onClick={row.getToggleExpandedHandler()}
      >
        <span aria-hidden="true">{row.getIsExpanded() ? '▾ ' : '▸ '}</span>
        Items
      </button>
    ),
  }),
  column.accessor('order_number', {
    id: 'order_number',
    header: 'Order number',
    cell: (info) => (
      <Link to="/orders/$orderId" params={{ orderId: info.row.original.order_id }}>
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor('order_status', { id: 'order_status', header: 'Status' }),
  column.accessor('brand', { id: 'brand', header: 'Brand' }),
  column.accessor('retailer', { id: 'retailer', header: 'Retailer' }),
  timeColumn('created_at', 'Created'),
  timeColumn('packed_at', 'Packed'),
  timeColumn('asn_sent_at', 'Shipped (ASN sent)'),
  countColumn('total_cartons', 'Cartons'),
  countColumn('total_pallets', 'Pallets'),
  countColumn('total_units', 'Units'),
  countColumn('total_labels', 'Labels'),
  countColumn('unique_labels', 'Unique labels'),
  countColumn('unique_sku_count', 'SKUs'),
  countColumn('total_vas_actions', 'Value-added services'),
];

function LineItems({ row }: { row: AnalyticsV2Row }) {
  if (row.line_items.length === 0) return <p className="hint">This order has no items.</p>;
  return (
    <table className="data-table analytics-items">
      <caption>Items of {row.order_number}</caption>
      <thead>
        <tr>
          <th scope="col">SKU</th>
          <th scope="col">UPC</th>
          <th scope="col">Ordered</th>
          <th scope="col">Shipped</th>
        </tr>
      </thead>
      <tbody>
        {row.line_items.map((item, index) => (
          <tr key={`${item.sku}-${index}`}>
            <td>{item.sku}</td>
            <td>{item.upc ?? '—'}</td>
            <td className="numeric">{formatCount(item.ordered_quantity)}</td>
            <td className="numeric">{formatCount(item.shipped_quantity)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface AnalyticsTableProps {
  rows: AnalyticsV2Row[];
  caption: string;
  visibility: VisibilityState;
  busy: boolean;
}

/** One page of analytics rows: sorts the loaded page, opens an order's items under its row. */
export function AnalyticsTable({ rows, caption, visibility, busy }: AnalyticsTableProps) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const [expanded, setExpanded] = useState<ExpandedState>({});
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting, expanded, columnVisibility: visibility },
    onSortingChange: setSorting,
    onExpandedChange: setExpanded,
    getRowId: (row) => row.order_id,
    getRowCanExpand: () => true,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
    enableSortingRemoval: true,
  });
  const columnCount = table.getVisibleLeafColumns().length;

  return (
    <div className="table-scroll" aria-busy={busy || undefined}>
      <table className="data-table analytics-table">
        <caption>{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) =>
                header.column.id === 'expand' ? (
                  <th key={header.id} scope="col">
                    {flexRender(header.column.columnDef.header, header.getContext())}
                  </th>
                ) : (
                  <HeaderCell key={header.id} header={header} />
                ),
              )}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <Fragment key={row.id}>
              <tr>
                {row.getVisibleCells().map((cell) => (
                  <td
                    key={cell.id}
                    className={
                      (cell.column.columnDef.meta as { className?: string } | undefined)?.className
                    }
                  >
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
              {row.getIsExpanded() ? (
                <tr className="analytics-detail" id={`analytics-items-${row.id}`}>
                  <td colSpan={columnCount}>
                    <LineItems row={row.original} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
