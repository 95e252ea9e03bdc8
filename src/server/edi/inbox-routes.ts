import {
  interchangeDetailSchema,
  interchangeIdParamsSchema,
  interchangeListQuerySchema,
  interchangePageSchema,
} from '../../shared/edi-inbox';
import { contentDisposition } from '../core/file-name';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, invalidAs, userOf, type RouteDef } from '../http/route-def';
import { interchangeDetail, interchangeRaw, listInbox, reprocessInterchange } from './inbox';

const error = (description: string) => ({ description, schema: errorEnvelopeSchema });
const WHO =
  'Only interchanges of connections whose brand the caller is an admin of in the connection’s organisation (the rule of POST /api/v1/edi/inbound)';
const notFoundDoc = error('Interchange not found (also one the caller may not see)');
const invalidId = invalidAs({ params: 'Invalid interchange ID format' });

/** The EDI inbox: inbound interchanges, their readable text and download, and a reprocess. */
export const ediInboxRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/edi/interchanges',
    summary: `List inbound interchanges, newest first, with their sets and outcome; refused and rejected ones with the reason in clerk words. ${WHO}`,
    tag: 'Order documents',
    query: interchangeListQuerySchema,
    internalErrorMessage: 'Interchange list retrieval failed',
    responses: {
      200: {
        description: 'One page of interchanges',
        schema: successEnvelope(interchangePageSchema),
      },
      400: error('Invalid query parameters (outcome, connection_id, page, page_size)'),
      401: error('Authentication failed'),
    },
    async handler({ query, request }, ctx) {
      const data = await listInbox(ctx, userOf(request), query);
      return { message: 'Interchanges retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/edi/interchanges/:interchange_id',
    summary: `One inbound interchange with its sets, their orders, the reason in clerk words and its text one segment per line (none, with content_kept false, for a file refused as too large). ${WHO}`,
    tag: 'Order documents',
    params: interchangeIdParamsSchema,
    invalid: invalidId,
    internalErrorMessage: 'Interchange retrieval failed',
    responses: {
      200: { description: 'The interchange', schema: successEnvelope(interchangeDetailSchema) },
      400: error('Invalid interchange ID format'),
      401: error('Authentication failed'),
      404: notFoundDoc,
    },
    async handler({ params, request }, ctx) {
      const data = await interchangeDetail(ctx, userOf(request), params.interchange_id);
      return { message: 'Interchange retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/edi/interchanges/:interchange_id/raw',
    summary: `Download an inbound interchange exactly as received (application/edi-x12, as an attachment). ${WHO}`,
    tag: 'Order documents',
    params: interchangeIdParamsSchema,
    invalid: invalidId,
    internalErrorMessage: 'Interchange download failed',
    responses: {
      200: { description: 'The text as received, with Content-Disposition: attachment' },
      400: error('Invalid interchange ID format'),
      401: error('Authentication failed'),
      404: notFoundDoc,
      409: error('No content: the file was refused as too large and nothing of it was kept'),
    },
    async handler({ params, request, reply }, ctx) {
      const file = await interchangeRaw(ctx, userOf(request), params.interchange_id);
      return reply
        .type(file.contentType)
        .header('Content-Disposition', contentDisposition(file.fileName, 'attachment'))
        .header('Cache-Control', 'private, no-store')
        .send(file.text);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/edi/interchanges/:interchange_id/reprocess',
    summary: `Run a refused, rejected or partly taken-in interchange again through the inbound path (after fixing an item, a facility code or the connection). Sets taken in before are not taken in again and no second 997 is sent; a file still refused answers 200 with the reason. ${WHO}`,
    tag: 'Order documents',
    params: interchangeIdParamsSchema,
    invalid: invalidId,
    internalErrorMessage: 'Interchange reprocess failed',
    responses: {
      200: {
        description: 'Run again: the message says what changed; the interchange as it is now',
        schema: successEnvelope(interchangeDetailSchema),
      },
      400: error('Invalid interchange ID format'),
      401: error('Authentication failed'),
      404: notFoundDoc,
      409: error(
        'Nothing to reprocess: the interchange was taken in whole, it repeats an earlier one, or it is a file refused as too large (nothing of it was kept)',
      ),
    },
    async handler({ params, request }, ctx) {
      return reprocessInterchange(ctx, userOf(request), params.interchange_id);
    },
  }),
];
