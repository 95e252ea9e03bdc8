import { z, type ZodType } from 'zod';
import {
  CHARGEBACK_MESSAGES,
  chargebackListQuerySchema,
  chargebackPageSchema,
  CLAIM_LIMITS,
  claimsImportBodySchema,
  importResultSchema,
  POS_MESSAGES,
  posListQuerySchema,
  posPageSchema,
} from '../../../shared/claims';
import { chargebackList } from '../../domain/claims/chargebacks';
import { importChargebacksCsv } from '../../domain/claims/chargeback-import';
import { disputePacket } from '../../domain/claims/packet';
import { posReportList } from '../../domain/claims/pos';
import { importPosCsv } from '../../domain/claims/pos-import';
import { invalidRequest } from '../../domain/errors';
import { errorEnvelopeSchema, successEnvelope } from '../openapi-schemas';
import { parseOr } from '../parse';
import { userOf, type RouteDef } from '../route-def';

/** Parses a query whose every issue carries the interface's exact message; the first one answers. */
function parseQuery<S extends ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw invalidRequest(result.error.issues[0]!.message);
}

const error = (description: string) => ({ description, schema: errorEnvelopeSchema });
const importErrors = {
  400: error(
    'Malformed body, or rejected rows: `error.errors` lists each as {row, column, reason}; nothing was written',
  ),
  401: error('Authentication failed'),
  403: error('Unauthorized: no admin grant for the brand at any of your facilities'),
  404: error('Brand not found / Retailer not found'),
  413: error('Request body is too large'),
};

const chargebackIdParams = z.object({ id: z.uuid() });

/** Chargebacks (14), POS reports (15), their CSV imports and the dispute packet. */
export const claimRoutes: RouteDef[] = [
  {
    method: 'GET',
    url: '/api/v1/chargebacks',
    summary: 'Chargebacks of the brands you see, newest first, filtered and paged',
    tag: 'Chargebacks',
    query: chargebackListQuerySchema,
    internalErrorMessage: CHARGEBACK_MESSAGES.failed,
    unauthenticatedMessage: CHARGEBACK_MESSAGES.unauthorized,
    responses: {
      200: {
        description: CHARGEBACK_MESSAGES.retrieved,
        schema: successEnvelope(chargebackPageSchema),
      },
      400: error('Invalid date for start_date. Expected YYYY-MM-DD (and the other parameters)'),
      401: error(CHARGEBACK_MESSAGES.unauthorized),
      404: error(CHARGEBACK_MESSAGES.retailerNotFound),
      500: error(CHARGEBACK_MESSAGES.failed),
    },
    async handler(request, _reply, ctx) {
      const query = parseQuery(chargebackListQuerySchema, request.query);
      const data = await chargebackList(ctx, userOf(request), query);
      return { message: CHARGEBACK_MESSAGES.retrieved, data };
    },
  },
  {
    method: 'POST',
    url: '/api/v1/chargebacks/import',
    summary:
      "Import a retailer's chargeback CSV: all rows or none, re-importing updates instead of duplicating",
    tag: 'Chargebacks',
    body: claimsImportBodySchema,
    bodyLimit: CLAIM_LIMITS.importBodyBytes,
    internalErrorMessage: CHARGEBACK_MESSAGES.importFailed,
    responses: {
      200: {
        description: CHARGEBACK_MESSAGES.imported,
        schema: successEnvelope(importResultSchema),
      },
      ...importErrors,
    },
    async handler(request, _reply, ctx) {
      const body = parseOr(claimsImportBodySchema, request.body, 'Invalid import request');
      const data = await importChargebacksCsv(ctx, userOf(request), body);
      return { message: CHARGEBACK_MESSAGES.imported, data };
    },
  },
  {
    method: 'GET',
    url: '/api/v1/chargebacks/:id/dispute-packet',
    summary:
      'Dispute packet: a zip with a cover PDF, and per matched order its bills of lading, compliance report and cartons and pallets',
    tag: 'Chargebacks',
    params: chargebackIdParams,
    internalErrorMessage: CHARGEBACK_MESSAGES.packetFailed,
    responses: {
      200: { description: 'application/zip, with Content-Disposition naming the file' },
      400: error('Invalid chargeback ID format'),
      401: error('Authentication failed'),
      404: error(CHARGEBACK_MESSAGES.notFound),
    },
    async handler(request, reply, ctx) {
      const { id } = parseOr(chargebackIdParams, request.params, 'Invalid chargeback ID format');
      const packet = await disputePacket(ctx, userOf(request), id.toLowerCase());
      return reply
        .type('application/zip')
        .header('Content-Disposition', packet.contentDisposition)
        .send(Buffer.from(packet.bytes));
    },
  },
  {
    method: 'GET',
    url: '/api/v1/pos-reports',
    summary: 'Point-of-sale report rows of the brands you see, newest period first, paged',
    tag: 'POS reports',
    query: posListQuerySchema,
    internalErrorMessage: POS_MESSAGES.failed,
    unauthenticatedMessage: POS_MESSAGES.unauthorized,
    responses: {
      200: { description: POS_MESSAGES.retrieved, schema: successEnvelope(posPageSchema) },
      400: error('Invalid date format: start_date must be YYYY-MM-DD (and the other parameters)'),
      401: error(POS_MESSAGES.unauthorized),
      404: error(POS_MESSAGES.retailerNotFound),
      500: error(POS_MESSAGES.failed),
    },
    async handler(request, _reply, ctx) {
      const query = parseQuery(posListQuerySchema, request.query);
      const data = await posReportList(ctx, userOf(request), query);
      return { message: POS_MESSAGES.retrieved, data };
    },
  },
  {
    method: 'POST',
    url: '/api/v1/pos-reports/import',
    summary:
      "Import a retailer's POS CSV: all rows or none, re-importing updates the figures instead of duplicating",
    tag: 'POS reports',
    body: claimsImportBodySchema,
    bodyLimit: CLAIM_LIMITS.importBodyBytes,
    internalErrorMessage: POS_MESSAGES.importFailed,
    responses: {
      200: { description: POS_MESSAGES.imported, schema: successEnvelope(importResultSchema) },
      ...importErrors,
    },
    async handler(request, _reply, ctx) {
      const body = parseOr(claimsImportBodySchema, request.body, 'Invalid import request');
      const data = await importPosCsv(ctx, userOf(request), body);
      return { message: POS_MESSAGES.imported, data };
    },
  },
];
