import { Link } from '@tanstack/react-router';
import { createColumnHelper, type VisibilityState } from '@tanstack/react-table';
import { useMemo } from 'react';
import type { Chargeback, DisputeStatus } from '../../../../shared/claims';
import { DataTable } from '../../components/DataTable';
import { formatMoney } from '../claims/claimsFormat';
import type { PickableColumn } from '../claims/ColumnPicker';
import { formatShortTime } from '../../format/time';
import { deadlineWarningOf, statusChipOf } from './chargebackRules';
import { DisputePacketButton } from './DisputePacketButton';

const NONE = '—';
const column = createColumnHelper<Chargeback>();

/** A status as text with a colour and a symbol that repeat it. */
export function StatusChip({ status }: { status: DisputeStatus }) {
  const chip = statusChipOf(status);
  return (
    <span className={`chargebacks-chip chargebacks-chip-${chip.tone}`} title={chip.meaning}>
      <span aria-hidden="true">{chip.symbol}</span> {chip.label}
    </span>
  );
}

function Deadline({ chargeback, today }: { chargeback: Chargeback; today: string }) {
  const warning = deadlineWarningOf(chargeback, today);
  return (
    <>
      {chargeback.dispute_deadline ?? NONE}
      {warning ? (
        <span className={`chargebacks-deadline chargebacks-deadline-${warning.kind}`}>
          <span aria-hidden="true">⚠ </span>
          {warning.text}
        </span>
      ) : null}
    </>
  );
}

function LinkedOrders({ chargeback }: { chargeback: Chargeback }) {
  if (chargeback.matched_orders.length === 0) {
    return <span className="chargebacks-no-order">No matching order</span>;
  }
  return (
    <ul className="chargebacks-orders" aria-label={`Orders of ${chargeback.chargeback_id}`}>
      {chargeback.matched_orders.map((order) => (
        <li key={order.order_id}>
          <Link to="/orders/$orderId" params={{ orderId: order.order_id }}>
            {order.picksheet_code}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Columns the clerk may hide, in table order (the chargeback number, with its packet, stays). */
export const CHARGEBACK_COLUMNS: readonly PickableColumn[] = [
  { id: 'status', label: 'Status' },
  { id: 'retailer', label: 'Retailer' },
  { id: 'po_number', label: 'PO number and orders' },
  { id: 'chargeback_date', label: 'Date' },
  { id: 'amount', label: 'Amount' },
  { id: 'amount_won_back', label: 'Won back' },
  { id: 'code', label: 'Reason code' },
  { id: 'category', label: 'Category' },
  { id: 'description', label: 'Description' },
  { id: 'deadline', label: 'Deadline' },
  { id: 'uploaded_at', label: 'Uploaded' },
];

/** Shown until the clerk chooses otherwise: what a dispute needs at a glance. */
export const DEFAULT_CHARGEBACK_VISIBILITY: VisibilityState = {
  amount_won_back: false,
  category: false,
  code: false,
  description: false,
  uploaded_at: false,
};

function columnsFor(today: string) {
  return [
    // The packet button sits under the number (not in a column of its own) so rows fit 1366 px.
    column.accessor('chargeback_id', {
      id: 'chargeback_id',
      header: 'Chargeback',
      cell: (info) => (
        <>
          <span className="chargebacks-number">{info.getValue()}</span>
          <DisputePacketButton chargeback={info.row.original} />
        </>
      ),
    }),
    column.accessor('dispute_status', {
      id: 'status',
      header: 'Status',
      cell: (info) => <StatusChip status={info.getValue()} />,
    }),
    column.accessor('retailer', { id: 'retailer', header: 'Retailer' }),
    // The orders a PO number matches sit under it: one column, so the row fits a 1366 px window.
    column.accessor('po_number', {
      id: 'po_number',
      header: 'PO number and orders',
      cell: (info) => (
        <>
          {info.getValue() || NONE}
          <LinkedOrders chargeback={info.row.original} />
        </>
      ),
    }),
    column.accessor('chargeback_date', { id: 'chargeback_date', header: 'Date' }),
    column.accessor('amount', {
      id: 'amount',
      header: 'Amount',
      cell: (info) => formatMoney(info.getValue()),
    }),
    column.accessor('amount_won_back', {
      id: 'amount_won_back',
      header: 'Won back',
      cell: (info) => formatMoney(info.getValue()),
    }),
    column.accessor('retailer_chargeback_code', {
      id: 'code',
      header: 'Reason code',
      cell: (info) => info.getValue() || NONE,
    }),
    column.accessor('category', {
      id: 'category',
      header: 'Category',
      cell: (info) => info.getValue() || NONE,
    }),
    column.accessor('description', {
      id: 'description',
      header: 'Description',
      enableSorting: false,
      cell: (info) => <span className="chargebacks-wrap">{info.getValue() || NONE}</span>,
    }),
    // No deadline sorts first going up: it is never urgent.
    column.accessor((row) => row.dispute_deadline ?? '', {
      id: 'deadline',
      header: 'Deadline',
      cell: (info) => <Deadline chargeback={info.row.original} today={today} />,
    }),
    column.accessor('uploaded_at', {
      id: 'uploaded_at',
      header: 'Uploaded',
      cell: (info) => formatShortTime(info.getValue()),
    }),
  ];
}

/** One page of chargebacks; a header click sorts the rows on screen. */
export function ChargebacksTable({
  chargebacks,
  caption,
  today,
  visibility,
}: {
  chargebacks: Chargeback[];
  caption: string;
  today: string;
  visibility: VisibilityState;
}) {
  const columns = useMemo(() => columnsFor(today), [today]);
  return (
    <div className="chargebacks-table">
      <DataTable
        data={chargebacks}
        columns={columns}
        caption={caption}
        getRowId={(row) => row.id}
        columnVisibility={visibility}
      />
    </div>
  );
}
