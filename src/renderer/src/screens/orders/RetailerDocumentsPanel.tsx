import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TimelineEntry } from '../../../../shared/edi-documents';
import { useApi } from '../../api/ApiContext';
import { describeError } from '../../api/ApiError';
import { useOrderTimeline } from '../../api/ediDocuments';
import { invalidateOrders } from '../../api/orderKeys';
import { retryOrderDocument } from '../../api/orderDocuments';
import { formatTime } from '../../format/time';
import { documentTypeName, statusName } from '../edi/documentNames';
import { sendErrorWords } from '../edi/sendErrorWords';
import { ClerkText } from '../inventory/ClerkText';
import { AcknowledgePanel } from './AcknowledgePanel';
import { DocumentReader } from './DocumentReader';

/**
 * The documents exchanged with the retailer about this order, in time order (issue 16): the 850
 * that made it and any 860s, then the 855, 856 and 810 sent, each with the 997s that answered it.
 * A sent document opens readably with a download; a failed one has Retry. The Acknowledge panel
 * shows where an 855 can be sent.
 */
export function RetailerDocumentsPanel({ orderId }: { orderId: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const timeline = useOrderTimeline(orderId);
  const [retrying, setRetrying] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const retry = async (documentId: string) => {
    setRetrying(documentId);
    setNote(null);
    try {
      setNote((await retryOrderDocument(api, orderId, documentId)).message);
    } catch (error) {
      setNote(describeError(error));
    } finally {
      setRetrying(null);
      await invalidateOrders(queryClient).catch(() => undefined);
    }
  };

  const entries = timeline.data?.entries ?? [];
  return (
    <>
      <section className="panel" aria-labelledby="retailer-documents-heading">
        <h2 id="retailer-documents-heading">Retailer documents</h2>
        {timeline.isError ? (
          <p className="hint">The documents could not be loaded.</p>
        ) : entries.length === 0 ? (
          <p className="hint">
            {timeline.isPending ? 'Loading…' : 'None yet: an ASN is made when the order ships.'}
          </p>
        ) : (
          <ol className="retailer-documents" aria-label="Document timeline">
            {entries.map((entry) => (
              <li key={entry.document_id ?? `${entry.interchange_id}-${entry.type}-${entry.at}`}>
                <EntryLine entry={entry} />
                {entry.document_id ? (
                  <div className="action-bar">
                    <button
                      type="button"
                      className="button"
                      aria-expanded={open === entry.document_id}
                      onClick={() => setOpen(open === entry.document_id ? null : entry.document_id)}
                    >
                      {open === entry.document_id ? 'Close' : 'Read'}{' '}
                      <span className="visually-hidden">{documentTypeName(entry.type)}</span>
                    </button>
                    {entry.status === 'failed' ? (
                      <button
                        type="button"
                        className="button"
                        disabled={retrying !== null}
                        onClick={() => void retry(entry.document_id!)}
                      >
                        {retrying === entry.document_id ? 'Sending…' : 'Retry'}
                      </button>
                    ) : null}
                  </div>
                ) : null}
                {entry.document_id && open === entry.document_id ? (
                  <DocumentReader orderId={orderId} documentId={entry.document_id} />
                ) : null}
              </li>
            ))}
          </ol>
        )}
        {note ? <p role="status">{note}</p> : null}
      </section>
      {timeline.data?.acknowledgment.available ? (
        <AcknowledgePanel orderId={orderId} options={timeline.data.acknowledgment} />
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
        {entry.direction === 'in' ? 'Received' : entry.status === 'queued' ? 'Made' : 'At'}{' '}
        {formatTime(entry.at)}
      </small>
      {entry.errors.map((error) =>
        // Our own document's error is why it was not sent: in a clerk's words.
        entry.direction === 'out' && entry.document_id ? (
          <div className="hint" key={error}>
            <ClerkText message={sendErrorWords(error)} />
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
