import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type {
  OrderDocumentStatusValue,
  OrderDocumentView,
} from '../../../../shared/order-documents';
import { useApi } from '../../api/ApiContext';
import { describeError } from '../../api/ApiError';
import { invalidateOrders, orderKeys } from '../../api/orderKeys';
import { fetchOrderDocuments, retryOrderDocument } from '../../api/orderDocuments';
import { formatTime } from '../../format/time';

const TYPE_NAMES: Record<OrderDocumentView['type'], string> = {
  '856': 'ASN (856)',
  '855': 'PO acknowledgment (855)',
  '810': 'Invoice (810)',
  '997': 'Functional acknowledgment (997)',
  SHIPMENT_CONFIRMATION: 'Shipment confirmation',
  TRACKING: 'Tracking update',
};

const STATUS_NAMES: Record<OrderDocumentStatusValue, string> = {
  queued: 'queued',
  sent: 'sent',
  failed: 'failed',
  accepted: 'accepted',
  accepted_with_errors: 'accepted with errors',
  rejected: 'rejected',
  overdue: 'sent, no acknowledgment yet (overdue)',
};

/** Under the orders prefix: every step's refresh reloads it (shipping adds the ASN). */
const documentsKey = (orderId: string) => [...orderKeys.all, 'documents', orderId] as const;

/**
 * The documents exchanged with the retailer about this order (issue 16): what went out, when,
 * and what failed with its reason, with Retry for a failed one.
 */
export function RetailerDocumentsPanel({ orderId }: { orderId: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const documents = useQuery({
    queryKey: documentsKey(orderId),
    queryFn: ({ signal }) => fetchOrderDocuments(api, orderId, signal),
    staleTime: 0,
  });
  const [retrying, setRetrying] = useState<string | null>(null);
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

  const rows = documents.data ?? [];
  return (
    <section className="panel" aria-labelledby="retailer-documents-heading">
      <h2 id="retailer-documents-heading">Retailer documents</h2>
      {documents.isError ? (
        <p className="hint">The documents could not be loaded.</p>
      ) : rows.length === 0 ? (
        <p className="hint">
          {documents.isPending ? 'Loading…' : 'None yet: an ASN is made when the order ships.'}
        </p>
      ) : (
        <ul className="retailer-documents">
          {rows.map((doc) => (
            <li key={doc.id}>
              <strong>{TYPE_NAMES[doc.type]}</strong>
              {doc.retailer_name ? ` to ${doc.retailer_name}` : ''}{' '}
              <span className="badge">{STATUS_NAMES[doc.status]}</span>
              {doc.interchange_control_number !== null ? ` #${doc.interchange_control_number}` : ''}
              <br />
              <small>
                {doc.sent_at
                  ? `Sent ${formatTime(doc.sent_at)}`
                  : `Made ${formatTime(doc.created_at)}`}
                {doc.status === 'failed' && doc.next_attempt_at
                  ? `; tried again by itself ${formatTime(doc.next_attempt_at)}`
                  : ''}
              </small>
              {doc.error ? <p className="hint">{doc.error}</p> : null}
              {doc.status === 'failed' ? (
                <button
                  type="button"
                  className="button"
                  disabled={retrying !== null}
                  onClick={() => void retry(doc.id)}
                >
                  {retrying === doc.id ? 'Sending…' : 'Retry'}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {note ? <p role="status">{note}</p> : null}
    </section>
  );
}
