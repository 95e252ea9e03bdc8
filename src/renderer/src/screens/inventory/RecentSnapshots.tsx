import { useState } from 'react';
import type { AdviceScope, SnapshotSummary } from '../../api/inventory';
import { loadStateOf, useSnapshots } from '../../api/queries';
import { formatTime } from '../../format/time';
import { canRetry, inStableOrder, scheduleNote } from './deliveryState';
import { kindLabel, plural } from './labels';
import { RetryDeliveryButton } from './RetryDeliveryButton';
import type { DocumentRequest } from './SendResults';

const SHOWN = 5;

function Snapshot({
  snapshot,
  onViewDocument,
  onRetried,
}: {
  snapshot: SnapshotSummary;
  onViewDocument: (request: DocumentRequest) => void;
  onRetried: (message: string) => void;
}) {
  const when = formatTime(snapshot.created_at);
  return (
    <li className="snapshot">
      <p>
        <strong>{when}</strong>: {plural(snapshot.item_count, 'SKU')}, {snapshot.summary.succeeded}{' '}
        of {snapshot.summary.total} delivered
      </p>
      <ul>
        {inStableOrder(snapshot.deliveries).map((delivery) => {
          const retailer = delivery.retailer_name ?? 'No retailer';
          // A delivery without a file name never had a document built (e.g. no enabled connection).
          const hasDocument = delivery.file_name !== null;
          const schedule = scheduleNote(delivery);
          return (
            <li key={delivery.delivery_id}>
              {retailer} ({kindLabel(delivery.kind)}): {delivery.status.toLowerCase()}
              {delivery.error ? ` (${delivery.error})` : ''}
              {schedule ? <span className="delivery-schedule">, {schedule}</span> : null}{' '}
              {hasDocument ? (
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
              ) : null}
              {canRetry({ status: delivery.status, hasDocument }) ? (
                <>
                  {' '}
                  <RetryDeliveryButton
                    deliveryId={delivery.delivery_id}
                    label={`delivery to ${retailer}, ${when}`}
                    onDone={onRetried}
                  />
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
    </li>
  );
}

/** The latest snapshots sent for the chosen brand and facility; refreshed by every send and retry. */
export function RecentSnapshots({
  scope,
  onViewDocument,
}: {
  scope: AdviceScope;
  onViewDocument: (request: DocumentRequest) => void;
}) {
  const query = useSnapshots(scope, 1, SHOWN);
  const state = loadStateOf(query);
  const [retryMessage, setRetryMessage] = useState<string | null>(null);

  return (
    <section className="panel" aria-labelledby="inventory-snapshots-heading">
      <h2 id="inventory-snapshots-heading">Recent snapshots</h2>
      <p role="status">{retryMessage}</p>
      {state.status === 'loading' || state.status === 'idle' ? (
        <p role="status">Loading recent snapshots…</p>
      ) : state.status === 'error' ? (
        <div role="alert">
          <p>Could not load recent snapshots: {state.message}</p>
          <button type="button" className="button" onClick={() => void query.refetch()}>
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
                onRetried={setRetryMessage}
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
