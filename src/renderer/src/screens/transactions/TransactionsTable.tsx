import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
} from '@tanstack/react-table';
import type { Transaction, TransactionSortField } from '../../../../shared/transactions';
import { formatShortTime } from '../orders/orderFormat';

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
          onClick={() => onOpen(info.row.original.transaction_id)}
          aria-label={`Details of ${info.row.original.action_type} at ${formatShortTime(info.getValue())}`}
        >
          {formatShortTime(info.getValue())}
        </button>
      ),
    }),
    column.accessor('action_type', { id: 'action_type', header: 'Action' }),
    column.accessor('execution_status', {
      id: 'execution_status',
      header: 'Status',
      cell: (info) => (
        <span className={`tx-status tx-status-${info.getValue().toLowerCase()}`}>
          {info.getValue()}
        </span>
      ),
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
  const table = useReactTable({
    data: transactions,
    columns: columnsOf(names, onOpen),
    getRowId: (row) => row.transaction_id,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
  });

  return (
    <div className="table-scroll" aria-busy={busy || undefined}>
      <table className="data-table transactions-table">
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
                const field = header.id as TransactionSortField;
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
