import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { SyncStatus } from '../../../../shared/sync';
import { loadStateOf } from '../../api/queries';
import {
  CONFLICT_PAGE_SIZE,
  syncKeys,
  useConflicts,
  useSyncStatus,
  type ConflictStatus,
} from '../../api/sync';
import { Loaded, LoadFailed, LoadingMessage, emptyFirstPage } from '../../components/LoadStates';
import { CountedPager, withPage } from '../../components/Pager';
import { useUrlSearch } from '../../components/useUrlSearch';
import { plural } from '../../format/plural';
import { ConflictsTable } from './ConflictsTable';
import { conflictStatusOf, searchForStatus, type SyncSearch } from './syncSearch';
import { SyncSummary } from './SyncSummary';

/** Said on a standalone install, where there is nothing to sync: where to set it up. */
function NotConnected() {
  return (
    <div className="state-message empty">
      <p>
        This installation is not connected to a central service. To sync, set it up in{' '}
        <Link to="/settings">Settings → Sync with a central service</Link>.
      </p>
      <details className="message-details">
        <summary>Details</summary>
        <p>
          An administrator can also start the app with{' '}
          <code>--central URL --device-id ID --device-secret SECRET</code>; start-up values win over
          saved settings.
        </p>
      </details>
    </div>
  );
}

export const NO_CONFLICTS =
  'No conflicts. Changes made offline that the central service refuses show up here.';

const NO_RESOLVED = 'No resolved conflicts yet.';

function ShowPicker({
  status,
  onChange,
}: {
  status: ConflictStatus;
  onChange: (next: ConflictStatus) => void;
}) {
  return (
    <div className="field sync-show">
      <label htmlFor="sync-show">Show</label>
      <select
        id="sync-show"
        value={status}
        onChange={(event) => onChange(event.target.value === 'resolved' ? 'resolved' : 'open')}
      >
        <option value="open">Open conflicts</option>
        <option value="resolved">Resolved conflicts</option>
      </select>
    </div>
  );
}

function Conflicts({
  syncStatus,
  search,
  go,
}: {
  syncStatus: SyncStatus;
  search: SyncSearch;
  go: (next: SyncSearch) => void;
}) {
  const status = conflictStatusOf(search);
  const page = search.page ?? 1;
  const query = useConflicts(status, page);
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);

  // New conflicts reach the badge first (it polls); the list follows when the count moves.
  const conflictCount = syncStatus.conflicts;
  const seenCount = useRef(conflictCount);
  useEffect(() => {
    if (seenCount.current === conflictCount) return;
    seenCount.current = conflictCount;
    void queryClient.invalidateQueries({ queryKey: syncKeys.conflictLists() });
  }, [conflictCount, queryClient]);

  // The settled row leaves the table: focus goes to the line saying what happened.
  useEffect(() => {
    if (notice !== null) noticeRef.current?.focus();
  }, [notice]);

  return (
    <section className="sync-conflicts" aria-labelledby="sync-conflicts-h">
      <div className="sync-conflicts-header">
        <h2 id="sync-conflicts-h">Conflicts</h2>
        <ShowPicker
          status={status}
          onChange={(next) => {
            setNotice(null);
            go(searchForStatus(next));
          }}
        />
      </div>
      <p ref={noticeRef} className="sync-notice" tabIndex={-1} aria-live="polite">
        {notice}
      </p>
      <Loaded
        state={loadStateOf(query)}
        onRetry={() => void query.refetch()}
        loading="Loading conflicts…"
        failed="Could not load conflicts"
        empty={(data) =>
          emptyFirstPage(
            data.items.length,
            page,
            <p>{status === 'open' ? NO_CONFLICTS : NO_RESOLVED}</p>,
          )
        }
      >
        {(data) => (
          <>
            <ConflictsTable
              conflicts={data.items}
              caption={plural(data.total_count, `${status} conflict`)}
              open={status === 'open'}
              busy={query.isPlaceholderData}
              onResolved={setNotice}
            />
            <CountedPager
              label="Pages of conflicts"
              noun="Conflicts"
              nothing="No conflicts"
              page={page}
              pageSize={CONFLICT_PAGE_SIZE}
              shown={data.items.length}
              total={data.total_count}
              busy={query.isPlaceholderData}
              onPage={(next) => go(withPage(search, next))}
            />
          </>
        )}
      </Loaded>
    </section>
  );
}

/** The sync state of this installation and the changes the central service refused. */
export function SyncScreen() {
  const [search, go] = useUrlSearch('/sync');
  const statusQuery = useSyncStatus();
  const state = loadStateOf(statusQuery);

  return (
    <section className="sync" aria-labelledby="screen-title">
      <div className="screen-header">
        <h1 id="screen-title" tabIndex={-1}>
          Sync
        </h1>
      </div>
      {state.status === 'error' ? (
        <LoadFailed
          what="Could not load the sync status"
          message={state.message}
          onRetry={() => void statusQuery.refetch()}
        />
      ) : state.status !== 'ready' ? (
        <LoadingMessage text="Loading the sync status…" />
      ) : state.data.role === 'standalone' ? (
        <NotConnected />
      ) : (
        <>
          <SyncSummary status={state.data} />
          <Conflicts syncStatus={state.data} search={search} go={go} />
        </>
      )}
    </section>
  );
}
