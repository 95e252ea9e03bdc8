import { Link } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo } from 'react';
import type { CoreCountKey, InvoiceOrderDetail } from '../../../../shared/billing';
import { DataTable } from '../../components/DataTable';
import { actionColumnsOf } from './billingCsv';
import { coreLabel } from './billingFormat';

const column = createColumnHelper<InvoiceOrderDetail>();

/** The counts the table shows (the CSV has every one, label kinds included). */
const SHOWN_COUNTS: CoreCountKey[] = [
  'pallets',
  'cartons',
  'units',
  'skus',
  'labels_generated',
  'vas_actions',
  'packing_slips',
];

const fixedColumns = [
  column.accessor('picksheet_code', {
    id: 'picksheet_code',
    header: 'Picksheet',
    cell: (info) => (
      <Link to="/orders/$orderId" params={{ orderId: info.row.original.order_id }}>
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor('brand', { id: 'brand', header: 'Brand' }),
  column.accessor('retailer', { id: 'retailer', header: 'Retailer' }),
  ...SHOWN_COUNTS.map((key) =>
    column.accessor((row) => row.core[key], {
      id: key,
      header: coreLabel(key),
      cell: (info) => info.getValue().toLocaleString(),
      sortDescFirst: true,
    }),
  ),
];

/** One page of per-order billing details; headers sort the page on screen. */
export function OrderDetailsTable({
  items,
  caption,
}: {
  items: InvoiceOrderDetail[];
  caption: string;
}) {
  const columns = useMemo(
    () => [
      ...fixedColumns,
      ...actionColumnsOf(items).map((action) =>
        column.accessor((row) => row[action.group][action.name] ?? -1, {
          id: `${action.group}:${action.name}`,
          header: action.label,
          // A blank cell: the order's brand has no price for this action.
          cell: (info) => (info.getValue() < 0 ? '' : info.getValue().toLocaleString()),
          sortDescFirst: true,
        }),
      ),
    ],
    [items],
  );
  return (
    <DataTable data={items} columns={columns} caption={caption} getRowId={(row) => row.order_id} />
  );
}
