import { orderDocumentSchema, type OrderDocumentView } from '../../../shared/order-documents';
import type { ApiClient } from './client';

/** The documents exchanged with retailers about an order (ASNs, shipment confirmations, …). */
const documentsPath = (orderId: string) =>
  `/api/v1/orders/${encodeURIComponent(orderId)}/documents`;

/** Sends a failed document again; the message says whether it went out, and why not. */
export async function retryOrderDocument(
  api: ApiClient,
  orderId: string,
  documentId: string,
): Promise<{ message: string; document: OrderDocumentView }> {
  const envelope = await api.request(
    `${documentsPath(orderId)}/${encodeURIComponent(documentId)}/retry`,
    orderDocumentSchema,
    { method: 'POST', body: {} },
  );
  return { message: envelope.message, document: envelope.data };
}
