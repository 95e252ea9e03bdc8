/**
 * The documents of an order as the API shows them, and a clerk's retry of a failed one. Same
 * visibility as the order's details: another tenant's order answers exactly like an unknown one.
 */
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict, notFound } from '../core/errors';
import { findOrderForUser, ORDER_NOT_FOUND } from '../orders';
import { ownSenderIds, describeSender } from '../sync/role';
import type { OrderDocumentView } from '../../shared/order-documents';
import { findOrderDocumentRow, listOrderDocuments } from './queries';
import { claimDocument, sendClaimedDocuments } from './send';

export async function orderDocuments(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
): Promise<OrderDocumentView[]> {
  const order = await findOrderForUser(ctx.db, user, orderId);
  if (!order) throw notFound(ORDER_NOT_FOUND);
  // Overdue or not is decided by the one rule (document-status.ts), in the query.
  return listOrderDocuments(ctx.db, order.id, ctx.clock.now().toISOString());
}

/**
 * POST …/documents/{document_id}/retry: sends a failed outbound document again now (the very
 * same bytes and idempotency key) and answers with its new state.
 */
export async function retryOrderDocument(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  documentId: string,
): Promise<{ message: string; data: OrderDocumentView }> {
  const order = await findOrderForUser(ctx.db, user, orderId);
  if (!order) throw notFound(ORDER_NOT_FOUND);
  const row = await findOrderDocumentRow(ctx.db, order.id, documentId);
  if (!row || row.direction !== 'out') throw notFound('Document not found');
  if (row.status !== 'failed') {
    throw conflict(`This document is ${row.status}; only a failed document is sent again`);
  }
  if (!ownSenderIds(ctx.sync).includes(row.sender_id)) {
    throw conflict(`This document is sent by ${describeSender(row.sender_id)}`);
  }
  if (!row.document) {
    throw conflict(
      `This document could not be built, so there is nothing to send: ${row.error ?? ''}`.trim(),
    );
  }
  if (!claimDocument(ctx, row.id)) throw conflict('This document is being sent right now');
  const results = await sendClaimedDocuments(ctx, [row.id], { automatic: false });
  const result = results.get(row.id);
  const data = (await orderDocuments(ctx, user, order.id)).find((d) => d.id === row.id)!;
  const message =
    result?.status === 'sent'
      ? 'Document sent'
      : `Document not sent: ${result?.error ?? 'it changed meanwhile'}`;
  return { message, data };
}
