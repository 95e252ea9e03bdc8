import type { SyncStatus } from '../../../../shared/sync';
import { formatTime } from '../../format/time';
import { roleLabel } from './syncFormat';

const never = (iso: string | null) => (iso === null ? 'Never' : formatTime(iso));

/** Where this installation stands: connection, changes waiting to go, last exchanges. */
export function SyncSummary({ status }: { status: SyncStatus }) {
  return (
    <section className="panel sync-summary" aria-labelledby="sync-summary-h">
      <h2 id="sync-summary-h">Status</h2>
      <dl className="facts">
        <div>
          <dt>Role</dt>
          <dd>{roleLabel(status.role)}</dd>
        </div>
        {status.role === 'workstation' ? (
          <>
            <div>
              <dt>Connection</dt>
              <dd className={status.online ? undefined : 'sync-offline'}>
                {status.online ? 'Online' : 'Offline'}
              </dd>
            </div>
            <div>
              <dt>Changes waiting to send</dt>
              <dd>{status.pending_mutations}</dd>
            </div>
            <div>
              <dt>Last push</dt>
              <dd>{never(status.last_push_at)}</dd>
            </div>
            <div>
              <dt>Last pull</dt>
              <dd>{never(status.last_pull_at)}</dd>
            </div>
            {status.last_error ? (
              <div>
                <dt>Last sync failed</dt>
                {/* The status is inside the <dd>: a role on it would take it out of the list. */}
                <dd className="sync-offline">
                  <span role="status">{status.last_error}</span>
                </dd>
              </div>
            ) : null}
          </>
        ) : null}
        <div>
          <dt>Open conflicts</dt>
          <dd>{status.conflicts}</dd>
        </div>
      </dl>
    </section>
  );
}
