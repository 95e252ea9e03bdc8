import { z } from 'zod';
import { uuidSchema } from '../../shared/ids';
import {
  acknowledgeBodySchema,
  madeDocumentsSchema,
  orderDocumentListSchema,
  orderDocumentSchema,
} from '../../shared/order-documents';
import { orderIdParamsSchema } from '../../shared/orders';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, invalidAs, userOf, type RouteDef } from '../http/route-def';
import { orderDocuments, retryOrderDocument } from './documents';
import { acknowledgeOrder, invoiceOrder } from './order-replies';

const documentParamsSchema = z.object({ order_id: uuidSchema, document_id: uuidSchema });

const replyResponses = (what: string, conflicts: string) => ({
  200: {
    description: `${what} made and sent, queued or failed: the message says which, per connection`,
    schema: successEnvelope(madeDocumentsSchema),
  },
  400: { description: 'Invalid order ID or body', schema: errorEnvelopeSchema },
  401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
  404: {
    description: "Order not found (also another tenant's order)",
    schema: errorEnvelopeSchema,
  },
  409: { description: conflicts, schema: errorEnvelopeSchema },
});

const notFoundDoc = {
  description: "Order not found (also another tenant's order)",
  schema: errorEnvelopeSchema,
};

/** The order documents exchanged with retailers (856, 855, 810, 997, JSON confirmations). */
export const ediRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders/:order_id/documents',
    summary:
      'List the documents of an order exchanged with retailers: type, direction, control numbers, status (queued, sent, failed, accepted, accepted_with_errors, rejected, overdue) and times',
    tag: 'Order documents',
    params: orderIdParamsSchema,
    internalErrorMessage: 'Order documents retrieval failed',
    responses: {
      200: {
        description: 'Order documents retrieved successfully',
        schema: successEnvelope(orderDocumentListSchema),
      },
      400: { description: 'Invalid order ID format', schema: errorEnvelopeSchema },
      401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
      404: notFoundDoc,
    },
    invalid: invalidAs({ params: 'Invalid order ID format' }),
    async handler({ params: { order_id }, request }, ctx) {
      const data = await orderDocuments(ctx, userOf(request), order_id);
      return { message: 'Order documents retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/orders/:order_id/documents/:document_id/retry',
    summary:
      'Send a failed outbound document again now (the same bytes and Idempotency-Key); answers with its new state',
    tag: 'Order documents',
    params: documentParamsSchema,
    internalErrorMessage: 'Document retry failed',
    responses: {
      200: {
        description: 'Sent, or not sent with the reason (the document stays failed)',
        schema: successEnvelope(orderDocumentSchema),
      },
      400: { description: 'Invalid ID format', schema: errorEnvelopeSchema },
      401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
      404: { description: 'Order or document not found', schema: errorEnvelopeSchema },
      409: {
        description:
          'The document is not failed, is being sent right now, is sent by another replica, or has nothing to send',
        schema: errorEnvelopeSchema,
      },
    },
    invalid: invalidAs({ params: 'Invalid ID format' }),
    async handler({ params: { order_id, document_id }, request }, ctx) {
      return retryOrderDocument(ctx, userOf(request), order_id, document_id);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/orders/:order_id/acknowledge',
    summary:
      'Acknowledge the purchase order with an 855 to each connection that takes them: per PO line accepted, rejected, backordered or quantity_changed (lines not named are accepted)',
    tag: 'Order documents',
    params: orderIdParamsSchema,
    body: acknowledgeBodySchema,
    internalErrorMessage: 'Order acknowledgment failed',
    responses: replyResponses(
      'The 855',
      'No connection of the retailer takes 855s; the order is cancelled or has no PO number',
    ),
    optionalBody: true,
    invalid: invalidAs({ params: 'Invalid order ID format', body: 'Invalid request body' }),
    async handler({ params: { order_id }, body, request }, ctx) {
      return acknowledgeOrder(ctx, userOf(request), order_id, body);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/orders/:order_id/invoice',
    summary:
      'Invoice a shipped order with an 810 to each connection that takes them: the quantities shipped at the PO’s unit prices',
    tag: 'Order documents',
    params: orderIdParamsSchema,
    internalErrorMessage: 'Order invoice failed',
    responses: replyResponses(
      'The 810',
      'No connection of the retailer takes 810s; the order is not shipped; a shipped line has no unit price (the message names the lines)',
    ),
    invalid: invalidAs({ params: 'Invalid order ID format' }),
    async handler({ params: { order_id }, request }, ctx) {
      return invoiceOrder(ctx, userOf(request), order_id);
    },
  }),
];
