import { z } from 'zod';
import { ORDER_DOCUMENT_STATUSES, ORDER_DOCUMENT_TYPES } from '../../../../shared/order-documents';
import type { EdiDocumentRequest } from '../../api/ediDocuments';
import { pageNumber } from '../../routing/urlSearch';

/** The Retailer documents screen's URL state; a value that does not fit is dropped. */
export const ediDocumentsSearchSchema = z.object({
  /** overdue is the "Overdue acknowledgments" view. */
  status: z.enum(ORDER_DOCUMENT_STATUSES).optional().catch(undefined),
  type: z.enum(ORDER_DOCUMENT_TYPES).optional().catch(undefined),
  page: pageNumber,
});
export type EdiDocumentsSearch = z.infer<typeof ediDocumentsSearchSchema>;

export const EDI_DOCUMENTS_PAGE_SIZE = 50;

export function ediDocumentRequestOf(search: EdiDocumentsSearch): EdiDocumentRequest {
  return {
    status: search.status,
    type: search.type,
    page: search.page ?? 1,
    pageSize: EDI_DOCUMENTS_PAGE_SIZE,
  };
}

export type EdiDocumentsView = 'all' | 'overdue';

export const viewOf = (search: EdiDocumentsSearch): EdiDocumentsView =>
  search.status === 'overdue' ? 'overdue' : 'all';

/** The URL state of a view, from its first page; the overdue view keeps the type filter. */
export function searchForView(search: EdiDocumentsSearch, view: EdiDocumentsView) {
  return { type: search.type, status: view === 'overdue' ? ('overdue' as const) : undefined };
}

/** What an empty first page says: nothing overdue is good news, not a missing list. */
export function emptyMessage(search: EdiDocumentsSearch): string {
  if (search.status === 'overdue') {
    return 'No overdue acknowledgments: every document sent was answered in time.';
  }
  if (search.status || search.type) {
    return 'No documents match these filters. Choose All statuses and All types to see every document.';
  }
  return 'No documents yet. Acknowledgments, ASNs and invoices appear here once orders are acknowledged, shipped or invoiced.';
}
