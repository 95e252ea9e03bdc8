import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type KeyboardEvent } from 'react';
import type { TimelineEntry } from '../../../../shared/edi-documents';
import type { OrderStatus } from '../../../../shared/orders';
import { useApi } from '../../api/ApiContext';
import { describeError } from '../../api/ApiError';
import { useOrderTimeline } from '../../api/ediDocuments';
import { invalidateOrders } from '../../api/orderKeys';
import { retryOrderDocument } from '../../api/orderDocuments';
import { LoadFailed } from '../../components/LoadStates';
import { formatTime } from '../../format/time';
import { documentTypeName, statusName } from '../edi/documentNames';
import { deliveryErrorWords } from '../../format/deliveryErrorWords';
import { ClerkText } from '../inventory/ClerkText';
import { AcknowledgePanel } from './AcknowledgePanel';
import { DocumentReader } from './DocumentReader';
import { InterchangeReader } from './InterchangeReader';
import { InvoicePanel } from './InvoicePanel';
import { entryTimeWord, noDocumentsYet } from './timelineWords';
import { ActionNote } from '../edi/ActionNote';

/** What a Retry answered, shown in the entry it belongs to. */
interface RetryNote {
  documentId: string;
  text: string;
  /** Still not sent: said at once (an alert), not politely. */
  failed: boolean;
}

/**
 * The documents exchanged with the retailer about this order, in time order (issue 16): the 850
 * that made it and any 860s, then the 855, 856 and 810 sent, each with the 997s that answered it.
 * Each opens readably with a download (Escape closes it; an inbound set shows its whole file); a failed one has Retry, whose
 * answer shows in its entry. The Acknowledge panel shows where an 855 can be sent, the Invoice
 * panel on a shipped order.
 */
export function RetailerDocumentsPanel({
  orderId,
  orderStatus,
}: {
  orderId: string;
  orderStatus: OrderStatus;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const timeline = useOrderTimeline(orderId);
  const [retrying, setRetrying] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [note, setNote] = useState<RetryNote | null>(null);
  const readButtons = useRef(new Map<string, HTMLButtonElement>());
  const noteRef = useRef<HTMLParagraphElement | null>(null);

  const retry = async (documentId: string) => {
    setRetrying(documentId);
    setNote(null);
    try {
      const answer = await retryOrderDocument(api, orderId, documentId);
      setNote({ documentId, text: answer.message, failed: answer.document.status === 'failed' });
    } catch (error) {
      setNote({ documentId, text: describeError(error), failed: true });
    } finally {
      setRetrying(null);
      await invalidateOrders(queryClient).catch(() => undefined);
      // A sent document loses its Retry button: the focus goes to what it answered.
      noteRef.current?.focus();
    }
  };

  const closeOnEscape = (event: KeyboardEvent, key: string) => {
    if (event.key !== 'Escape' || open !== key) return;
    event.preventDefault();
    setOpen(null);
    readButtons.current.get(key)?.focus();
  };

  const entries = timeline.data?.entries ?? [];
  return (
    <>
      <section className="panel" aria-labelledby="retailer-documents-heading">
        <h2 id="retailer-documents-heading">Retailer documents</h2>
        {timeline.isError ? (
          <LoadFailed
            what="Could not load the documents"
            message={describeError(timeline.error)}
            onRetry={() => void timeline.refetch()}
          />
        ) : entries.length === 0 ? (
          <p className="hint">
            {timeline.isPending
              ? 'Loading…'
              : noDocumentsYet(orderStatus, timeline.data!.acknowledgment)}
          </p>
        ) : (
          <ol className="retailer-documents" aria-label="Document timeline">
            {entries.map((entry) => {
              const documentId = entry.document_id;
              const interchangeId = entry.interchange_id;
              const key = documentId ?? `${interchangeId}-${entry.type}-${entry.at}`;
              const name = documentTypeName(entry.type);
              return (
                <li key={key}>
                  <EntryLine entry={entry} />
                  {documentId || interchangeId ? (
                    <div onKeyDown={(event) => closeOnEscape(event, key)}>
                      <div className="action-bar">
                        <button
                          type="button"
                          className="button"
                          ref={(button) => {
                            if (button) readButtons.current.set(key, button);
                            else readButtons.current.delete(key);
                          }}
                          aria-expanded={open === key}
                          onClick={() => setOpen(open === key ? null : key)}
                        >
                          {open === key ? 'Close' : 'Read'}{' '}
                          <span className="visually-hidden">{name}</span>
                        </button>
                        {documentId && entry.retryable ? (
                          <button
                            type="button"
                            className="button"
                            disabled={retrying !== null}
                            onClick={() => void retry(documentId)}
                          >
                            {retrying === documentId ? 'Sending…' : 'Retry'}{' '}
                            <span className="visually-hidden">{name}</span>
                          </button>
                        ) : null}
                      </div>
                      {documentId && note?.documentId === documentId ? (
                        <ActionNote note={note} ref={noteRef} />
                      ) : null}
                      {open === key && documentId ? (
                        <DocumentReader orderId={orderId} documentId={documentId} />
                      ) : open === key && interchangeId ? (
                        <InterchangeReader interchangeId={interchangeId} name={name} />
                      ) : null}
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ol>
        )}
      </section>
      {timeline.data?.acknowledgment.available ? (
        <AcknowledgePanel orderId={orderId} options={timeline.data.acknowledgment} />
      ) : null}
      {timeline.data && orderStatus === 'Shipped' ? (
        <InvoicePanel orderId={orderId} options={timeline.data.invoice} />
      ) : null}
    </>
  );
}

function EntryLine({ entry }: { entry: TimelineEntry }) {
  return (
    <>
      <strong>{documentTypeName(entry.type)}</strong>{' '}
      {entry.direction === 'in' ? 'from the retailer' : 'to the retailer'}{' '}
      <span className={`badge document-${entry.status}`}>{statusName(entry.status)}</span>
      {entry.control_number !== null ? ` #${entry.control_number}` : ''}
      <br />
      <small>
        {entryTimeWord(entry)} {formatTime(entry.at)}
      </small>
      {entry.errors.map((error) =>
        // Our own document's error is why it was not sent: in a clerk's words.
        entry.direction === 'out' && entry.document_id ? (
          <div className="hint" key={error}>
            <ClerkText message={deliveryErrorWords(error)} />
          </div>
        ) : (
          <p className="hint" key={error}>
            {error}
          </p>
        ),
      )}
      {entry.answers.length > 0 ? (
        <ul className="document-answers">
          {entry.answers.map((answer) => (
            <li key={answer.interchange_id}>
              997 #{answer.interchange_control_number}: {statusName(answer.outcome)}, received{' '}
              {formatTime(answer.received_at)}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
