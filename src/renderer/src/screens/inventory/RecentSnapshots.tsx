import { useCallback } from 'react';
import { useApi } from '../../api/ApiContext';
import { listSnapshots, type AdviceScope, type SnapshotSummary } from '../../api/inventory';
import { formatTime, kindLabel, plural } from './labels';
import type { DocumentRequest } from './SendResults';
import { useLoad } from './useLoad';

const SHOWN = 5;

function Snapshot({
  snapshot,
  onViewDocument,
}: {
  snapshot: SnapshotSummary;
  onViewDocument: (request: DocumentRequest) => void;
}) {
  const when = formatTime(snapshot.created_at);
  return (
    <li className="snapshot">
      <p>
        <strong>{when}</strong>: {plural(snapshot.item_count, 'SKU')}, {snapshot.summary.succeeded}{' '}
        of {snapshot.summary.total} delivered
      </p>
      <ul>
        {snapshot.deliveries.map((delivery) => {
          const retailer = delivery.retailer_name ?? 'Unknown retailer';
          return (
            <li key={delivery.delivery_id}>
              {retailer} ({kindLabel(delivery.kind)}): {delivery.status.toLowerCase()}
              {delivery.error ? ` (${delivery.error})` : ''}{' '}
              <button
                type="button"
                className="link-button"
                aria-label={`View document for ${retailer}, ${when}`}
                onClick={() =>
                  onViewDocument({
                    deliveryId: delivery.delivery_id,
                    title: `Document for ${retailer}, ${when}`,
                  })
                }
              >
                View document
              </button>
            </li>
          );
        })}
      </ul>
    </li>
  );
}

/** The latest snapshots sent for the chosen brand and facility (re-key it to reload). */
export function RecentSnapshots({
  scope,
  onViewDocument,
}: {
  scope: AdviceScope;
  onViewDocument: (request: DocumentRequest) => void;
}) {
  const api = useApi();
  const load = useCallback(
    (signal: AbortSignal) => listSnapshots(api, scope, { page: 1, pageSize: SHOWN }, signal),
    [api, scope],
  );
  const { state, reload } = useLoad(load);

  return (
    <section className="panel" aria-labelledby="inventory-snapshots-heading">
      <h2 id="inventory-snapshots-heading">Recent snapshots</h2>
      {state.status === 'loading' || state.status === 'idle' ? (
        <p role="status">Loading recent snapshots…</p>
      ) : state.status === 'error' ? (
        <div role="alert">
          <p>Could not load recent snapshots: {state.message}</p>
          <button type="button" className="button" onClick={reload}>
            Retry
          </button>
        </div>
      ) : state.data.items.length === 0 ? (
        <p>Nothing sent yet for this brand at this facility.</p>
      ) : (
        <>
          <ol className="snapshots">
            {state.data.items.map((snapshot) => (
              <Snapshot
                key={snapshot.snapshot_id}
                snapshot={snapshot}
                onViewDocument={onViewDocument}
              />
            ))}
          </ol>
          {state.data.total_count > state.data.items.length ? (
            <p className="hint">
              Showing the latest {state.data.items.length} of {state.data.total_count}.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
