import { z } from 'zod';
import { uuidSchema } from '../../shared/ids';
import { orderDocumentListSchema, orderDocumentSchema } from '../../shared/order-documents';
import { orderIdParamsSchema } from '../../shared/orders';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, invalidAs, userOf, type RouteDef } from '../http/route-def';
import { orderDocuments, retryOrderDocument } from './documents';

const documentParamsSchema = z.object({ order_id: uuidSchema, document_id: uuidSchema });

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
];
