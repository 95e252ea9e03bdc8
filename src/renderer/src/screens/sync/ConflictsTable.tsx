import { Link } from '@tanstack/react-router';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { createContext, useContext, type ReactNode } from 'react';
import type { SyncConflict } from '../../../../shared/sync';
import { HeaderCell, TableRows } from '../../components/TableParts';
import { formatShortTime } from '../../format/time';
import { ConflictActions } from './ConflictActions';
import {
  fieldLabels,
  formatConflictValue,
  formatSyncClock,
  isRefusedCreate,
  mutationLabel,
  resolutionLabel,
} from './syncFormat';

const column = createColumnHelper<SyncConflict>();
const NONE = '—';

/** One line per field; a single field needs no list. */
function PerField({ lines }: { lines: string[] }): ReactNode {
  if (lines.length === 0) return NONE;
  if (lines.length === 1) return lines[0];
  return (
    <ul className="sync-field-list">
      {lines.map((line, index) => (
        <li key={index}>{line}</li>
      ))}
    </ul>
  );
}

const baseColumns = [
  column.accessor('created_at', {
    header: 'When',
    cell: (info) => formatShortTime(info.getValue()),
  }),
  column.accessor('mutation', {
    header: 'What',
    cell: (info) => <span title={info.getValue()}>{mutationLabel(info.getValue())}</span>,
  }),
  column.accessor('picksheet_code', {
    header: 'Order',
    cell: (info) => {
      const { order_id: orderId, picksheet_code: code } = info.row.original;
      if (orderId === null || isRefusedCreate(info.row.original)) return code ?? NONE;
      return (
        <Link to="/orders/$orderId" params={{ orderId }}>
          {code ?? 'Open order'}
        </Link>
      );
    },
  }),
  column.display({
    id: 'field',
    header: 'Field',
    cell: (info) => <PerField lines={fieldLabels(info.row.original.fields)} />,
  }),
  column.display({
    id: 'yours',
    header: 'Yours',
    cell: (info) => (
      <PerField lines={info.row.original.fields.map((f) => formatConflictValue(f.yours))} />
    ),
  }),
  column.display({
    id: 'central',
    header: "Central's",
    cell: (info) => (
      <PerField lines={info.row.original.fields.map((f) => formatConflictValue(f.central))} />
    ),
  }),
  column.accessor('reason', { header: 'Reason' }),
];

const resolutionColumn = column.display({
  id: 'resolution',
  header: 'Resolution',
  cell: (info) => {
    const conflict = info.row.original;
    return conflict.resolved_at
      ? `${resolutionLabel(conflict)}, ${formatSyncClock(conflict.resolved_at)}`
      : resolutionLabel(conflict);
  },
});

/** What the screen does once a row is settled (a context keeps the columns, and so the rows' state, stable). */
const ResolvedContext = createContext<(message: string) => void>(() => undefined);

function ResolveCell({ conflict }: { conflict: SyncConflict }) {
  return <ConflictActions conflict={conflict} onResolved={useContext(ResolvedContext)} />;
}

const openColumns = [
  ...baseColumns,
  column.display({
    id: 'resolve',
    header: 'Resolve',
    cell: (info) => <ResolveCell conflict={info.row.original} />,
  }),
];
const resolvedColumns = [...baseColumns, resolutionColumn];

/** One page of conflicts in the service's order (newest first); open ones carry their answers. */
export function ConflictsTable({
  conflicts,
  caption,
  open,
  busy,
  onResolved,
}: {
  conflicts: SyncConflict[];
  caption: string;
  /** Open conflicts get the Keep central's / Apply mine buttons, resolved ones their outcome. */
  open: boolean;
  busy: boolean;
  onResolved: (message: string) => void;
}) {
  const table = useReactTable({
    data: conflicts,
    columns: open ? openColumns : resolvedColumns,
    getRowId: (row) => row.id,
    getCoreRowModel: getCoreRowModel(),
    // The service orders newest first; a sort of one page on screen would mislead.
    enableSorting: false,
  });
  return (
    <ResolvedContext.Provider value={onResolved}>
      <div className="table-scroll" aria-busy={busy || undefined}>
        <table className="data-table sync-table">
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
    </ResolvedContext.Provider>
  );
}
