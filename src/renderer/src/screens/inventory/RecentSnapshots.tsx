import { useState } from 'react';
import type { AdviceScope, SnapshotSummary } from '../../api/inventory';
import { loadStateOf } from '../../api/queries';
import { useUrlSearch } from '../../components/useUrlSearch';
import { useSnapshots } from './inventoryQueries';
import { formatTime } from '../../format/time';
import { ClerkText } from './ClerkText';
import { deliveryErrorWords } from '../../format/deliveryErrorWords';
import { canRetry, inStableOrder, scheduleNote } from './deliveryState';
import { kindLabel } from './labels';
import { plural } from '../../format/plural';
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
              {delivery.error ? (
                <div>
                  <ClerkText message={deliveryErrorWords(delivery.error, 'file')} />
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </li>
  );
}

/** Which snapshots are shown, with Newer and Older when there are more. */
function SnapshotPager({
  page,
  shown,
  total,
  busy,
  onPage,
}: {
  page: number;
  shown: number;
  total: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  if (page === 1 && shown >= total) return null;
  const first = (page - 1) * SHOWN + 1;
  const hasOlder = page * SHOWN < total;
  return (
    <div className="pager" aria-busy={busy}>
      <p className="hint">
        {shown > 0
          ? `Showing ${first}–${first + shown - 1} of ${total}, newest first.`
          : `No snapshots on this page (${total} in all).`}
      </p>
      <button
        type="button"
        className="button"
        disabled={page === 1}
        onClick={() => onPage(page - 1)}
      >
        Newer
      </button>{' '}
      <button
        type="button"
        className="button"
        disabled={!hasOlder}
        onClick={() => onPage(page + 1)}
      >
        Older
      </button>
    </div>
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
  // The page lives in the URL, so a reload or a visit to another screen keeps it.
  const [search, go] = useUrlSearch('/inventory');
  const page = search.history ?? 1;
  const goTo = (next: number) => go({ ...search, history: next > 1 ? next : undefined });
  const query = useSnapshots(scope, page, SHOWN);
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
      ) : state.data.items.length === 0 && page === 1 ? (
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
          <SnapshotPager
            page={state.data.page}
            shown={state.data.items.length}
            total={state.data.total_count}
            busy={query.isPlaceholderData}
            onPage={goTo}
          />
        </>
      )}
    </section>
  );
}
