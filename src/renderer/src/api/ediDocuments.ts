import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  ediDocumentPageSchema,
  ediDocumentSummarySchema,
  orderDocumentDetailSchema,
  orderTimelineSchema,
  type EdiDocumentPage,
  type EdiDocumentSummary,
  type OrderDocumentDetail,
  type OrderTimeline,
} from '../../../shared/edi-documents';
import {
  madeDocumentsSchema,
  type AcknowledgeBody,
  type OrderDocumentStatusValue,
  type OrderDocumentTypeValue,
} from '../../../shared/order-documents';
import { useApi } from './ApiContext';
import type { ApiClient } from './client';
import { orderKeys } from './orderKeys';

/**
 * The outbound documents screens' calls (issue 16, item 9). Their keys sit under the orders
 * prefix: every write to an order (ship, acknowledge, retry) refreshes them with the rest.
 */
export interface EdiDocumentRequest {
  status?: OrderDocumentStatusValue | undefined;
  type?: OrderDocumentTypeValue | undefined;
  page: number;
  pageSize: number;
}

export const ediDocumentKeys = {
  list: (request: EdiDocumentRequest) => [...orderKeys.all, 'edi-documents', request] as const,
  summary: [...orderKeys.all, 'edi-documents-summary'] as const,
  timeline: (orderId: string) => [...orderKeys.all, 'document-timeline', orderId] as const,
  one: (orderId: string, documentId: string) =>
    [...orderKeys.all, 'document', orderId, documentId] as const,
};

const orderPath = (orderId: string) => `/api/v1/orders/${encodeURIComponent(orderId)}`;
const documentPath = (orderId: string, documentId: string) =>
  `${orderPath(orderId)}/documents/${encodeURIComponent(documentId)}`;

export function fetchEdiDocuments(
  api: ApiClient,
  request: EdiDocumentRequest,
  signal?: AbortSignal,
): Promise<EdiDocumentPage> {
  const query = new URLSearchParams({
    page: String(request.page),
    page_size: String(request.pageSize),
  });
  if (request.status) query.set('status', request.status);
  if (request.type) query.set('type', request.type);
  return api.get(`/api/v1/edi/documents?${query.toString()}`, ediDocumentPageSchema, signal);
}

export function useEdiDocuments(request: EdiDocumentRequest) {
  const api = useApi();
  return useQuery({
    queryKey: ediDocumentKeys.list(request),
    queryFn: ({ signal }) => fetchEdiDocuments(api, request, signal),
    placeholderData: keepPreviousData,
  });
}

/** How often the header asks again: often enough to notice, gently enough for 7 engineers' CPUs. */
export const SUMMARY_POLL_MS = 60_000;

export function useEdiDocumentSummary() {
  const api = useApi();
  return useQuery({
    queryKey: ediDocumentKeys.summary,
    queryFn: ({ signal }): Promise<EdiDocumentSummary> =>
      api.get('/api/v1/edi/documents/summary', ediDocumentSummarySchema, signal),
    refetchInterval: SUMMARY_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

export function useOrderTimeline(orderId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ediDocumentKeys.timeline(orderId),
    queryFn: ({ signal }): Promise<OrderTimeline> =>
      api.get(`${orderPath(orderId)}/document-timeline`, orderTimelineSchema, signal),
    staleTime: 0,
  });
}

export function useOrderDocument(orderId: string, documentId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: ediDocumentKeys.one(orderId, documentId ?? ''),
    queryFn: ({ signal }): Promise<OrderDocumentDetail> =>
      api.get(documentPath(orderId, documentId!), orderDocumentDetailSchema, signal),
    enabled: documentId !== null,
  });
}

/** The document exactly as sent, for a download. */
export async function fetchDocumentContent(api: ApiClient, orderId: string, documentId: string) {
  const document = await api.getText(`${documentPath(orderId, documentId)}/content`);
  return new Blob([document.text], { type: document.contentType });
}

/** POST …/acknowledge: the message says per connection whether the 855 was sent, queued or failed. */
export async function acknowledgeOrder(api: ApiClient, orderId: string, body: AcknowledgeBody) {
  const envelope = await api.request(`${orderPath(orderId)}/acknowledge`, madeDocumentsSchema, {
    method: 'POST',
    body,
  });
  return { message: envelope.message, documents: envelope.data.documents };
}

/** POST …/invoice: the message says per connection whether the 810 was sent, queued or failed. */
export async function invoiceOrder(api: ApiClient, orderId: string) {
  const envelope = await api.request(`${orderPath(orderId)}/invoice`, madeDocumentsSchema, {
    method: 'POST',
    body: {},
  });
  return { message: envelope.message, documents: envelope.data.documents };
}
