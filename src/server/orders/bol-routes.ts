import { z } from 'zod';
import {
  BOL_MAX_FILE_BYTES,
  bolBodySchema,
  bolVersionListSchema,
  bolVersionParamsSchema,
  orderIdParamsSchema,
} from '../../shared/orders';
import { queueTrackingUpdates } from '../edi';
import { BOL_MESSAGES, bolFile, bolHistory, uploadBillOfLading } from './bol';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, invalidAs, userOf, type RouteDef } from '../http/route-def';

/**
 * The upload's own body limit: the base64 of a 10 MB PDF (4/3 of it) plus room for the other
 * fields and JSON. The global limit stays 1 MB.
 */
export const BOL_BODY_LIMIT = Math.ceil(BOL_MAX_FILE_BYTES / 3) * 4 + 64 * 1024;

const error = (description: string) => ({ description, schema: errorEnvelopeSchema });
const notFound = error('Order not found (also for another tenant’s order)');

export const orderBolRoutes: RouteDef[] = [
  defineRoute({
    method: 'POST',
    url: '/api/documents/bol/:order_id',
    summary:
      'Attach a bill of lading (base64 PDF, at most 10 MB) to an order; a re-upload adds a version',
    tag: 'Orders',
    params: orderIdParamsSchema,
    body: bolBodySchema,
    bodyLimit: BOL_BODY_LIMIT,
    emptyBodyMessage: BOL_MESSAGES.invalid,
    internalErrorMessage: BOL_MESSAGES.failed,
    responses: {
      200: { description: BOL_MESSAGES.uploaded, schema: z.object({ message: z.string() }) },
      400: error(
        `${BOL_MESSAGES.invalid}: a missing or malformed field, not base64, or not a whole readable PDF; error.details says which`,
      ),
      401: error('Authentication failed'),
      404: notFound,
      409: error(BOL_MESSAGES.cancelled),
      413: error('The PDF is over 10 MB, or the request body over its limit'),
      500: error(BOL_MESSAGES.failed),
    },
    invalid: invalidAs({ params: BOL_MESSAGES.invalid, body: BOL_MESSAGES.invalid }),
    async handler({ params: { order_id }, body, request }, ctx) {
      // A shipped order's retailers hear of a changed BOL, PRO or carrier (SEND_TRACKING).
      await uploadBillOfLading(ctx, userOf(request), order_id, body, undefined, (...args) =>
        queueTrackingUpdates(ctx, ...args),
      );
      return { message: BOL_MESSAGES.uploaded };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders/:order_id/bol',
    summary: 'Every bill of lading uploaded to an order, newest first',
    tag: 'Orders',
    params: orderIdParamsSchema,
    responses: {
      200: {
        description: 'BOL versions retrieved successfully',
        schema: successEnvelope(bolVersionListSchema),
      },
      400: error('Invalid order ID format'),
      401: error('Authentication failed'),
      404: notFound,
    },
    invalid: invalidAs({ params: 'Invalid order ID format' }),
    async handler({ params: { order_id }, request }, ctx) {
      const data = await bolHistory(ctx, userOf(request), order_id);
      return { message: 'BOL versions retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders/:order_id/bol/:version_id/file',
    summary: 'Download one stored bill of lading (application/pdf)',
    tag: 'Orders',
    params: bolVersionParamsSchema,
    responses: {
      200: { description: 'The PDF, with Content-Disposition naming the uploaded file' },
      400: error('Invalid order or version ID format'),
      401: error('Authentication failed'),
      404: error('Order not found, or BOL version not found'),
    },
    invalid: invalidAs({ params: 'Invalid order or version ID format' }),
    async handler({ params, request, reply }, ctx) {
      const file = await bolFile(ctx, userOf(request), params.order_id, params.version_id);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', file.contentDisposition)
        .header('Cache-Control', 'private, no-store')
        .send(file.bytes);
    },
  }),
];
