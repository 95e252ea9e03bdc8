import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useRef, useState } from 'react';
import {
  INTERCHANGE_OUTCOMES,
  type InterchangeItem,
  type InterchangeOutcomeValue,
} from '../../../../shared/edi-inbox';
import { useApi } from '../../api/ApiContext';
import { ediInboxKeys, fetchInterchanges, INBOX_PAGE_SIZE } from '../../api/ediInbox';
import { loadStateOf } from '../../api/queries';
import { DataTable } from '../../components/DataTable';
import { emptyFirstPage, Loaded } from '../../components/LoadStates';
import { CountedPager } from '../../components/Pager';
import { formatTime } from '../../format/time';
import { ImportDropZone } from './ImportDropZone';
import { InterchangeDetailPanel } from './InterchangeDetailPanel';
import { OUTCOME_LABELS, setsSummary, SOURCE_LABELS } from './inboxFormat';

const column = createColumnHelper<InterchangeItem>();

/** The empty inbox says how files get here. */
function EmptyInbox({ filtered }: { filtered: boolean }) {
  if (filtered)
    return <p>No interchanges with this outcome. Choose “All outcomes” to see every one.</p>;
  return (
    <p>
      No purchase orders have come in yet. Import X12 files above, or have the retailer post them to
      the service or drop them in the connection’s inbound folder; each one shows up here.
    </p>
  );
}

/**
 * The EDI inbox (issue 16, item 9): inbound interchanges, newest first, with their outcome; a
 * row opens its sets, orders, reason, text, Download and Reprocess. The drop zone imports files.
 */
export function EdiInboxScreen() {
  const api = useApi();
  const [outcome, setOutcome] = useState<InterchangeOutcomeValue | null>(null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string | null>(null);
  // Closing gives the focus back to the Open that showed the panel (found again by its
  // interchange: a refetch may have re-made the row), or to the list's heading when a filter or
  // page change took the row away.
  const listSection = useRef<HTMLElement>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const closeDetail = () => {
    const opener = selected
      ? listSection.current?.querySelector<HTMLElement>(
          `button[data-interchange-id="${CSS.escape(selected)}"]`,
        )
      : null;
    setSelected(null);
    (opener ?? listHeading.current)?.focus();
  };
  const query = useQuery({
    queryKey: ediInboxKeys.list(outcome, page),
    queryFn: ({ signal }) => fetchInterchanges(api, { outcome, page }, signal),
    staleTime: 0,
  });

  // Made once: new cell functions on every render would re-mount each row's Open button, and a
  // refetch would take the keyboard focus off it.
  const columns = useMemo(
    () => [
      column.accessor('received_at', {
        header: 'Received',
        cell: (info) => formatTime(info.getValue()),
      }),
      column.accessor((row) => row.retailer_name ?? '', { id: 'retailer', header: 'Retailer' }),
      column.accessor(
        (row) => `${SOURCE_LABELS[row.source]}${row.file_name ? `: ${row.file_name}` : ''}`,
        {
          id: 'source',
          header: 'Came in',
        },
      ),
      column.accessor('control_number', { header: 'Control number' }),
      column.accessor((row) => setsSummary(row), { id: 'sets', header: 'Sets' }),
      column.accessor('outcome', {
        header: 'Outcome',
        cell: (info) => (
          <span className={`badge outcome-${info.getValue()}`}>
            {OUTCOME_LABELS[info.getValue()]}
          </span>
        ),
      }),
      column.display({
        id: 'open',
        header: 'Details',
        cell: (info) => (
          <button
            type="button"
            className="button"
            aria-label={`Open interchange ${info.row.original.control_number || info.row.original.file_name || info.row.original.id}`}
            data-interchange-id={info.row.original.id}
            onClick={() => setSelected(info.row.original.id)}
          >
            Open
          </button>
        ),
      }),
    ],
    [],
  );

  return (
    <section className="edi-inbox" aria-labelledby="edi-inbox-heading">
      <div className="screen-header">
        <h1 id="edi-inbox-heading" tabIndex={-1}>
          EDI inbox
        </h1>
      </div>
      <ImportDropZone />
      <section className="panel" aria-labelledby="edi-inbox-list-heading" ref={listSection}>
        <h2 id="edi-inbox-list-heading" ref={listHeading} tabIndex={-1}>
          Inbound interchanges
        </h2>
        <div className="field">
          <label htmlFor="edi-inbox-outcome">Outcome</label>
          <select
            id="edi-inbox-outcome"
            value={outcome ?? ''}
            onChange={(event) => {
              const value = event.target.value;
              setOutcome(
                (INTERCHANGE_OUTCOMES as readonly string[]).includes(value)
                  ? (value as InterchangeOutcomeValue)
                  : null,
              );
              setPage(1);
            }}
          >
            <option value="">All outcomes</option>
            {INTERCHANGE_OUTCOMES.map((value) => (
              <option key={value} value={value}>
                {OUTCOME_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <Loaded
          state={loadStateOf(query)}
          onRetry={() => void query.refetch()}
          loading="Loading interchanges…"
          failed="Could not load interchanges"
          empty={(data) =>
            emptyFirstPage(
              data.interchanges.length,
              page,
              <EmptyInbox filtered={outcome !== null} />,
            )
          }
        >
          {(data) => (
            <>
              <DataTable
                data={data.interchanges}
                columns={columns}
                caption="Inbound interchanges, newest first"
                getRowId={(row) => row.id}
              />
              <CountedPager
                label="Pages of interchanges"
                noun="Interchanges"
                nothing="No interchanges"
                page={page}
                pageSize={INBOX_PAGE_SIZE}
                shown={data.interchanges.length}
                total={data.total_count}
                busy={query.isFetching}
                onPage={setPage}
              />
            </>
          )}
        </Loaded>
      </section>
      {selected && <InterchangeDetailPanel id={selected} onClose={closeDetail} />}
    </section>
  );
}
