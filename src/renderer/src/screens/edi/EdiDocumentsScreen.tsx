import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import {
  ORDER_DOCUMENT_STATUSES,
  ORDER_DOCUMENT_TYPES,
  type OrderDocumentStatusValue,
  type OrderDocumentTypeValue,
  isRetryable,
} from '../../../../shared/order-documents';
import type { EdiDocumentListItem } from '../../../../shared/edi-documents';
import { useApi } from '../../api/ApiContext';
import { describeError } from '../../api/ApiError';
import { ediDocumentKeys, useEdiDocuments } from '../../api/ediDocuments';
import { invalidateOrders } from '../../api/orderKeys';
import { retryOrderDocument } from '../../api/orderDocuments';
import { loadStateOf } from '../../api/queries';
import { Loaded, emptyFirstPage } from '../../components/LoadStates';
import { CountedPager, withPage } from '../../components/Pager';
import { useUrlSearch } from '../../components/useUrlSearch';
import { formatTime } from '../../format/time';
import { ClerkText } from '../inventory/ClerkText';
import { DOCUMENT_STATUS_NAMES, documentTypeName } from './documentNames';
import { deliveryErrorWords } from '../../format/deliveryErrorWords';
import {
  EDI_DOCUMENTS_PAGE_SIZE,
  ediDocumentRequestOf,
  emptyMessage,
  searchForView,
  viewOf,
} from './ediDocumentsSearch';
import { ActionNote } from './ActionNote';

/**
 * Retailer documents (issue 16, item 9): the acknowledgments, ASNs and invoices sent for the
 * orders the user sees, by status, with an "Overdue acknowledgments" view and Retry for a failed
 * one. Filters and page live in the URL.
 */
export function EdiDocumentsScreen() {
  const [search, go] = useUrlSearch('/edi/documents');
  const query = useEdiDocuments(ediDocumentRequestOf(search));
  const state = loadStateOf(query);
  const page = search.page ?? 1;
  const view = viewOf(search);
  const api = useApi();
  const queryClient = useQueryClient();
  const [retrying, setRetrying] = useState<string | null>(null);
  // A document becomes overdue with time, not only with a write: each time this list is shown
  // or answers, the header's counts are asked again, so they are of the same moment as the list.
  const listedAt = query.isPlaceholderData ? 0 : query.dataUpdatedAt;
  useEffect(() => {
    if (listedAt > 0) {
      void queryClient.invalidateQueries({ queryKey: ediDocumentKeys.summary, exact: true });
    }
  }, [listedAt, queryClient]);
  // Kept above the list: a retried document leaves a "failed" list, and its answer must stay.
  // It names the document, since its row may be gone; a send that failed again is an alert.
  const [note, setNote] = useState<{ text: string; failed: boolean } | null>(null);
  const noteRef = useRef<HTMLParagraphElement>(null);

  const retry = async (document: EdiDocumentListItem) => {
    setRetrying(document.id);
    setNote(null);
    const which = documentLabel(document);
    try {
      const answer = await retryOrderDocument(api, document.order.id, document.id);
      setNote({ text: `${which}: ${answer.message}`, failed: answer.document.status === 'failed' });
    } catch (error) {
      setNote({ text: `${which}: ${describeError(error)}`, failed: true });
    } finally {
      setRetrying(null);
      await invalidateOrders(queryClient).catch(() => undefined);
      // The pressed Retry is gone with its row (or disabled): the focus goes to the answer.
      noteRef.current?.focus();
    }
  };

  return (
    <section className="edi-documents" aria-labelledby="screen-title">
      <div className="screen-header">
        <h1 id="screen-title" tabIndex={-1}>
          Retailer documents
        </h1>
      </div>
      <nav className="billing-tabs" aria-label="Retailer document views">
        <Link
          to="/edi/documents"
          search={searchForView(search, 'all')}
          className={view === 'all' ? 'billing-tab active' : 'billing-tab'}
          aria-current={view === 'all' ? 'page' : undefined}
          activeOptions={{ exact: true, includeSearch: true }}
        >
          All documents
        </Link>
        <Link
          to="/edi/documents"
          search={searchForView(search, 'overdue')}
          className={view === 'overdue' ? 'billing-tab active' : 'billing-tab'}
          aria-current={view === 'overdue' ? 'page' : undefined}
          activeOptions={{ exact: true, includeSearch: true }}
        >
          Overdue acknowledgments
        </Link>
      </nav>
      <div className="filters">
        <label>
          Status
          <select
            value={search.status ?? ''}
            onChange={(event) =>
              go({
                ...search,
                status: (event.target.value || undefined) as OrderDocumentStatusValue | undefined,
                page: undefined,
              })
            }
          >
            <option value="">All statuses</option>
            {ORDER_DOCUMENT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {DOCUMENT_STATUS_NAMES[status]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Type
          <select
            value={search.type ?? ''}
            onChange={(event) =>
              go({
                ...search,
                type: (event.target.value || undefined) as OrderDocumentTypeValue | undefined,
                page: undefined,
              })
            }
          >
            <option value="">All types</option>
            {ORDER_DOCUMENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {documentTypeName(type)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {note ? <ActionNote note={note} ref={noteRef} /> : null}
      <Loaded
        state={state}
        onRetry={() => void query.refetch()}
        loading="Loading documents…"
        failed="Could not load documents"
        empty={(data) => emptyFirstPage(data.documents.length, page, <p>{emptyMessage(search)}</p>)}
      >
        {(data) => (
          <>
            <div aria-busy={query.isPlaceholderData || undefined}>
              <DocumentsTable
                documents={data.documents}
                retrying={retrying}
                onRetry={(document) => void retry(document)}
                caption={`${data.total_count} ${data.total_count === 1 ? 'document' : 'documents'}${view === 'overdue' ? ' overdue' : ''}`}
              />
            </div>
            <CountedPager
              label="Pages of documents"
              noun="Documents"
              nothing="Nothing"
              page={page}
              pageSize={EDI_DOCUMENTS_PAGE_SIZE}
              shown={data.documents.length}
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

/** A document by its type and order, e.g. "Invoice (810) for PO NW4500564". */
function documentLabel(document: EdiDocumentListItem): string {
  const order = document.order.po_number
    ? `PO ${document.order.po_number}`
    : document.order.picksheet_code;
  return `${documentTypeName(document.type)} for ${order}`;
}

function DocumentsTable({
  documents,
  caption,
  retrying,
  onRetry,
}: {
  documents: EdiDocumentListItem[];
  caption: string;
  retrying: string | null;
  onRetry: (document: EdiDocumentListItem) => void;
}) {
  return (
    <>
      <table className="data-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col">Order</th>
            <th scope="col">Retailer</th>
            <th scope="col">Status</th>
            <th scope="col">When</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {documents.map((document) => (
            <tr key={document.id}>
              <td>
                {documentTypeName(document.type)}
                {document.interchange_control_number !== null
                  ? ` #${document.interchange_control_number}`
                  : ''}
              </td>
              <td>
                <Link to="/orders/$orderId" params={{ orderId: document.order.id }}>
                  {document.order.po_number
                    ? `PO ${document.order.po_number}`
                    : document.order.picksheet_code}
                </Link>
              </td>
              <td>{document.retailer_name ?? ''}</td>
              <td>
                <span className={`badge document-${document.status}`}>
                  {DOCUMENT_STATUS_NAMES[document.status]}
                </span>
                {document.error ? (
                  <div className="hint">
                    <ClerkText message={deliveryErrorWords(document.error)} />
                    {document.status === 'failed' && document.next_attempt_at
                      ? ` Tried again by itself at ${formatTime(document.next_attempt_at)}.`
                      : null}
                  </div>
                ) : null}
              </td>
              <td>
                {document.sent_at
                  ? `Sent ${formatTime(document.sent_at)}`
                  : `Made ${formatTime(document.created_at)}`}
              </td>
              <td>
                {isRetryable(document) ? (
                  <button
                    type="button"
                    className="button"
                    disabled={retrying !== null}
                    onClick={() => onRetry(document)}
                    aria-label={`Retry ${documentLabel(document)}`}
                  >
                    {retrying === document.id ? 'Sending…' : 'Retry'}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
