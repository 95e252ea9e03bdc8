import { useState } from 'react';
import type { AdviceOutcome, AdviceResult, SnapshotDelivery } from '../../api/inventory';
import { useSnapshot } from './inventoryQueries';
import { useAnnounce } from '../../status/StatusContext';
import { ClerkText } from './ClerkText';
import { deliveryErrorWords } from '../../format/deliveryErrorWords';
import { canRetry, inStableOrder, scheduleNote } from './deliveryState';
import { RetryDeliveryButton } from './RetryDeliveryButton';

export interface DocumentRequest {
  deliveryId: string;
  title: string;
}

const STATUS_TEXT = { SUCCESS: '✓ Sent', FAILURE: '✗ Failed', PENDING: '… Pending' } as const;
const STATUS_CLASS = { SUCCESS: 'status-ok', FAILURE: 'status-failed', PENDING: '' } as const;

function ResultRow({
  result,
  current,
  onViewDocument,
  onRetried,
}: {
  result: AdviceResult;
  /** The delivery's state now (after retries and the outbox's own attempts), once loaded. */
  current: SnapshotDelivery | undefined;
  onViewDocument: (request: DocumentRequest) => void;
  onRetried: (message: string) => void;
}) {
  const retailer = result.retailer_name ?? 'Unknown retailer';
  const status = current?.status ?? (result.success ? 'SUCCESS' : 'FAILURE');
  const error = current ? current.error : result.error;
  const schedule = current ? scheduleNote(current) : '';
  // Before the current state is in, assume a document exists, as it does for every connection.
  const hasDocument = current ? current.file_name !== null : true;
  return (
    <tr>
      <th scope="row">{retailer}</th>
      <td>{result.organization_name ?? '—'}</td>
      <td className={STATUS_CLASS[status]}>{STATUS_TEXT[status]}</td>
      <td>
        {schedule ? <div className="delivery-schedule">{schedule}</div> : null}
        {error ? <ClerkText message={deliveryErrorWords(error, 'file')} /> : null}
      </td>
      <td className="result-actions">
        {hasDocument ? (
          <button
            type="button"
            className="button"
            aria-label={`View document for ${retailer}`}
            onClick={() =>
              onViewDocument({
                deliveryId: result.delivery_id,
                title:
                  status === 'SUCCESS'
                    ? `Document sent to ${retailer}`
                    : `Document for ${retailer} (not delivered)`,
              })
            }
          >
            View document
          </button>
        ) : null}
        {canRetry({ status, hasDocument }) ? (
          <>
            {' '}
            <RetryDeliveryButton
              className="button"
              deliveryId={result.delivery_id}
              label={`delivery to ${retailer}`}
              onDone={onRetried}
            />
          </>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * One row per connection of a finished send, with the service's summary message. The rows follow
 * each delivery's current state, so a retry here or in Recent snapshots shows in both.
 */
export function SendResults({
  outcome,
  onViewDocument,
}: {
  outcome: AdviceOutcome;
  onViewDocument: (request: DocumentRequest) => void;
}) {
  const { summary, results, snapshot_id } = outcome.data;
  const snapshot = useSnapshot(snapshot_id);
  const announce = useAnnounce();
  const [retryMessage, setRetryMessage] = useState<string | null>(null);
  const onRetried = (message: string) => {
    setRetryMessage(message);
    announce(message);
  };

  const current = new Map(
    (snapshot.data?.deliveries ?? []).map((delivery) => [delivery.delivery_id, delivery]),
  );
  const now = snapshot.data?.summary;
  const changed = now !== undefined && now.succeeded !== summary.succeeded;
  const tone = outcome.status === 200 ? 'success' : outcome.status === 207 ? 'warning' : 'error';
  return (
    <section className="panel" aria-labelledby="inventory-results-heading">
      <h2 id="inventory-results-heading">Send results</h2>
      <p className={`outcome ${tone}`} role={tone === 'success' ? 'status' : 'alert'}>
        {outcome.message}
        <span className="outcome-summary">
          {' '}
          ({summary.succeeded} of {summary.total} delivered)
        </span>
      </p>
      {changed ? (
        <p className="outcome-now">
          Now {now.succeeded} of {now.total} delivered
          {now.pending > 0 ? `, ${now.pending} pending` : ''}.
        </p>
      ) : null}
      {retryMessage ? <p className="hint">{retryMessage}</p> : null}
      <div className="table-scroll">
        <table className="data-table">
          <caption>One result per retailer connection</caption>
          <thead>
            <tr>
              <th scope="col">Retailer</th>
              <th scope="col">Organisation</th>
              <th scope="col">Status</th>
              <th scope="col">Error</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {inStableOrder(results).map((result) => (
              <ResultRow
                key={result.delivery_id}
                result={result}
                current={current.get(result.delivery_id)}
                onViewDocument={onViewDocument}
                onRetried={onRetried}
              />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
