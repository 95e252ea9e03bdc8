import { createColumnHelper } from '@tanstack/react-table';
import { Link } from '@tanstack/react-router';
import type { Transaction, TransactionSortField } from '../../../../shared/transactions';
import { ServerSortedTable } from '../../components/ServerSortedTable';
import { formatShortTime } from '../../format/time';
import { statusLabel } from './transactionLabels';

const column = createColumnHelper<Transaction>();
const NONE = '—';

export interface NameLookup {
  facility: (id: string | null) => string;
  brand: (id: string | null) => string;
  retailer: (id: string | null) => string;
}

function columnsOf(names: NameLookup, onOpen: (id: string) => void) {
  return [
    column.accessor('created_at', {
      id: 'created_at',
      header: 'Created',
      cell: (info) => (
        <button
          type="button"
          className="link-button"
          // The screen gives focus back to this button when the details close.
          data-opens-transaction={info.row.original.transaction_id}
          onClick={() => onOpen(info.row.original.transaction_id)}
          aria-label={`Details of ${info.row.original.action_type} at ${formatShortTime(info.getValue())}`}
        >
          {formatShortTime(info.getValue())}
        </button>
      ),
    }),
    column.accessor('action_type', {
      id: 'action_type',
      header: 'Action',
      // The phrase; its code (action_type_label) is in the title and the details.
      cell: (info) => <span title={info.row.original.action_type_label}>{info.getValue()}</span>,
    }),
    column.accessor('execution_status', {
      id: 'execution_status',
      header: 'Status',
      cell: (info) => (
        <span
          className={`tx-status tx-status-${info.getValue().toLowerCase()}`}
          title={info.getValue()}
        >
          {statusLabel(info.getValue())}
        </span>
      ),
    }),
    column.accessor('picksheet_code', {
      id: 'picksheet_code',
      header: 'Picksheet',
      cell: (info) => {
        const orderId = info.row.original.order_id;
        if (!orderId) return NONE;
        // A row whose order is gone (or never existed) still names it by id.
        return (
          <Link to="/orders/$orderId" params={{ orderId }}>
            {info.getValue() ?? orderId}
          </Link>
        );
      },
    }),
    column.accessor('po_number', {
      id: 'po_number',
      header: 'PO',
      cell: (info) => info.getValue() || NONE,
    }),
    column.accessor('facility_id', {
      id: 'facility',
      header: 'Facility',
      cell: (info) => names.facility(info.getValue()),
    }),
    column.accessor('brand_id', {
      id: 'brand',
      header: 'Brand',
      cell: (info) => names.brand(info.getValue()),
    }),
    column.accessor('retailer_id', {
      id: 'retailer',
      header: 'Retailer',
      cell: (info) => names.retailer(info.getValue()),
    }),
    column.accessor('error_message', {
      id: 'error_message',
      header: 'Error',
      cell: (info) => info.getValue() ?? NONE,
    }),
    column.accessor('duration_ms', {
      id: 'duration_ms',
      header: 'Duration',
      cell: (info) => `${info.getValue()} ms`,
    }),
    column.accessor('updated_at', {
      id: 'updated_at',
      header: 'Updated',
      cell: (info) => formatShortTime(info.getValue()),
    }),
  ];
}

const SORTABLE: ReadonlySet<string> = new Set<TransactionSortField>([
  'created_at',
  'updated_at',
  'execution_status',
  'action_type',
]);

export interface TransactionsTableProps {
  transactions: Transaction[];
  caption: string;
  names: NameLookup;
  sort: { field: TransactionSortField; direction: 'asc' | 'desc' };
  onSort: (field: TransactionSortField) => void;
  onOpen: (transactionId: string) => void;
  busy: boolean;
}

/** One page of the log; the service sorts, so a header click asks it again. */
export function TransactionsTable({
  transactions,
  caption,
  names,
  sort,
  onSort,
  onOpen,
  busy,
}: TransactionsTableProps) {
  return (
    <ServerSortedTable
      data={transactions}
      columns={columnsOf(names, onOpen)}
      getRowId={(row) => row.transaction_id}
      className="transactions-table"
      caption={caption}
      sortable={SORTABLE}
      sort={sort}
      onSort={onSort}
      busy={busy}
    />
  );
}
