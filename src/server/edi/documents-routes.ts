import { z } from 'zod';
import { uuidSchema } from '../../shared/ids';
import {
  ediDocumentListQuerySchema,
  ediDocumentPageSchema,
  ediDocumentSummarySchema,
  orderDocumentDetailSchema,
  orderTimelineSchema,
} from '../../shared/edi-documents';
import { orderIdParamsSchema } from '../../shared/orders';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, invalidAs, userOf, type RouteDef } from '../http/route-def';
import { orderDocumentContent, orderDocumentDetail } from './document-read';
import { documentList, documentSummary } from './documents-list';
import { orderTimeline } from './order-timeline';

const documentParamsSchema = z.object({ order_id: uuidSchema, document_id: uuidSchema });
const error = (description: string) => ({ description, schema: errorEnvelopeSchema });
const TAG = 'Order documents';

/** The outbound documents screens: every visible document, the header count, one document read. */
export const ediDocumentRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/edi/documents',
    summary:
      'List the outbound documents of every order the user sees, newest first: filter by status (overdue = sent and no 997 within the connection’s ack_hours), type and retailer; pages',
    tag: TAG,
    query: ediDocumentListQuerySchema,
    internalErrorMessage: 'Document list retrieval failed',
    responses: {
      200: {
        description: 'Documents retrieved successfully',
        schema: successEnvelope(ediDocumentPageSchema),
      },
      400: error('Invalid query parameters'),
      401: error('Authentication failed'),
    },
    invalid: invalidAs({ query: 'Invalid query parameters' }),
    async handler({ query, request }, ctx) {
      const data = await documentList(ctx, userOf(request), query);
      return { message: 'Documents retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/edi/documents/summary',
    summary:
      'Count the outbound documents of the orders the user sees per status; needs_attention = overdue + failed (the header count)',
    tag: TAG,
    internalErrorMessage: 'Document summary retrieval failed',
    responses: {
      200: {
        description: 'Document counts retrieved successfully',
        schema: successEnvelope(ediDocumentSummarySchema),
      },
      401: error('Authentication failed'),
    },
    async handler({ request }, ctx) {
      const data = await documentSummary(ctx, userOf(request));
      return { message: 'Document counts retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders/:order_id/document-timeline',
    summary:
      'The order’s document timeline: the 850 and 860s that made and changed it, the documents sent (855, 856, 810, …) with the 997s that answered them, and whether an 855 can be sent now (with the PO lines)',
    tag: TAG,
    params: orderIdParamsSchema,
    internalErrorMessage: 'Document timeline retrieval failed',
    responses: {
      200: {
        description: 'Timeline retrieved successfully',
        schema: successEnvelope(orderTimelineSchema),
      },
      400: error('Invalid order ID format'),
      401: error('Authentication failed'),
      404: error("Order not found (also another tenant's order)"),
    },
    invalid: invalidAs({ params: 'Invalid order ID format' }),
    async handler({ params: { order_id }, request }, ctx) {
      const data = await orderTimeline(ctx, userOf(request), order_id);
      return { message: 'Timeline retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders/:order_id/documents/:document_id',
    summary:
      'One document of an order, with its content made readable (X12 one segment per line, JSON indented)',
    tag: TAG,
    params: documentParamsSchema,
    internalErrorMessage: 'Document retrieval failed',
    responses: {
      200: {
        description: 'Document retrieved successfully',
        schema: successEnvelope(orderDocumentDetailSchema),
      },
      400: error('Invalid ID format'),
      401: error('Authentication failed'),
      404: error('Order or document not found'),
    },
    invalid: invalidAs({ params: 'Invalid ID format' }),
    async handler({ params: { order_id, document_id }, request }, ctx) {
      const data = await orderDocumentDetail(ctx, userOf(request), order_id, document_id);
      return { message: 'Document retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders/:order_id/documents/:document_id/content',
    summary:
      'Download a document exactly as sent (application/edi-x12 or application/json, as an attachment)',
    tag: TAG,
    params: documentParamsSchema,
    internalErrorMessage: 'Document download failed',
    responses: {
      200: { description: 'The document, with Content-Disposition naming its file' },
      400: error('Invalid ID format'),
      401: error('Authentication failed'),
      404: error('Order or document not found, or the document has no content'),
    },
    invalid: invalidAs({ params: 'Invalid ID format' }),
    async handler({ params: { order_id, document_id }, request, reply }, ctx) {
      const file = await orderDocumentContent(ctx, userOf(request), order_id, document_id);
      return reply
        .type(file.contentType)
        .header('Content-Disposition', file.contentDisposition)
        .header('Cache-Control', 'private, no-store')
        .send(file.bytes);
    },
  }),
];
