import { useCallback, useState } from 'react';
import { describeError } from '../../api/ApiError';
import { useApi } from '../../api/ApiContext';
import {
  listSnapshots,
  retryDelivery,
  type AdviceScope,
  type SnapshotSummary,
} from '../../api/inventory';
import { formatTime, kindLabel, plural } from './labels';
import type { DocumentRequest } from './SendResults';
import { useLoad } from './useLoad';

const SHOWN = 5;

/** Offered for deliveries that did not reach the retailer: failed, or left pending by a crash. */
function RetryButton({
  deliveryId,
  label,
  onDone,
}: {
  deliveryId: string;
  label: string;
  onDone: (message: string) => void;
}) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const retry = async () => {
    setBusy(true);
    try {
      const result = await retryDelivery(api, deliveryId);
      onDone(result.success ? `${label}: sent` : `${label}: ${result.error ?? result.message}`);
    } catch (error) {
      onDone(`${label}: ${describeError(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className="link-button"
      aria-label={`Retry ${label}`}
      aria-busy={busy}
      disabled={busy}
      onClick={() => void retry()}
    >
      {busy ? 'Retrying…' : 'Retry'}
    </button>
  );
}

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
        {snapshot.deliveries.map((delivery) => {
          const retailer = delivery.retailer_name ?? 'No retailer';
          // A delivery without a file name never had a document built (e.g. no enabled connection).
          const hasDocument = delivery.file_name !== null;
          return (
            <li key={delivery.delivery_id}>
              {retailer} ({kindLabel(delivery.kind)}): {delivery.status.toLowerCase()}
              {delivery.error ? ` (${delivery.error})` : ''}{' '}
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
              {hasDocument && (delivery.status === 'FAILURE' || delivery.status === 'PENDING') ? (
                <>
                  {' '}
                  <RetryButton
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
  const [retryMessage, setRetryMessage] = useState<string | null>(null);
  const onRetried = (message: string) => {
    setRetryMessage(message);
    reload();
  };

  return (
    <section className="panel" aria-labelledby="inventory-snapshots-heading">
      <h2 id="inventory-snapshots-heading">Recent snapshots</h2>
      <p role="status">{retryMessage}</p>
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
                onRetried={onRetried}
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
