import { z, type ZodType } from 'zod';
import {
  CHARGEBACK_MESSAGES,
  chargebackListQuerySchema,
  chargebackPageSchema,
  CLAIM_LIMITS,
  claimsImportBodySchema,
  importResultSchema,
  type ClaimsImportBody,
  type ImportResult,
  POS_MESSAGES,
  posListQuerySchema,
  posPageSchema,
} from '../../shared/claims';
import type { AuthUser, ServiceContext } from '../core/context';
import { chargebackList } from './chargebacks';
import { importChargebacksCsv } from './chargeback-import';
import { disputePacket } from './packet';
import { posReportList } from './pos';
import { importPosCsv } from './pos-import';
import { invalidRequest } from '../core/errors';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, invalidAs, userOf, type InvalidHook, type RouteDef } from '../http/route-def';

/** Every issue of a claims query carries the interface's exact message; the first one answers. */
const firstIssueMessage: InvalidHook = ({ issues }) => invalidRequest(issues[0]!.message);

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

/** The messages a claims list and its import answer with. */
interface ClaimMessages {
  retrieved: string;
  failed: string;
  unauthorized: string;
  retailerNotFound: string;
  imported: string;
  importFailed: string;
}

interface ClaimListSpec<Q extends ZodType> {
  url: string;
  summary: string;
  tag: string;
  query: Q;
  page: ZodType;
  messages: ClaimMessages;
  /** The 400 description: the first query message, "(and the other parameters)". */
  badQuery: string;
  list(ctx: ServiceContext, user: AuthUser, query: z.infer<Q>): Promise<unknown>;
}

/** A filtered, paged claims list; a bad query answers the first issue's exact message. */
function claimListRoute<Q extends ZodType>(spec: ClaimListSpec<Q>): RouteDef {
  const { messages } = spec;
  return defineRoute<undefined, Q, undefined>({
    method: 'GET',
    url: spec.url,
    summary: spec.summary,
    tag: spec.tag,
    query: spec.query,
    invalid: firstIssueMessage,
    internalErrorMessage: messages.failed,
    unauthenticatedMessage: messages.unauthorized,
    responses: {
      200: { description: messages.retrieved, schema: successEnvelope(spec.page) },
      400: error(spec.badQuery),
      401: error(messages.unauthorized),
      404: error(messages.retailerNotFound),
      500: error(messages.failed),
    },
    async handler({ query, request }, ctx) {
      const data = await spec.list(ctx, userOf(request), query as z.output<Q>);
      return { message: messages.retrieved, data };
    },
  });
}

interface ClaimImportSpec {
  url: string;
  summary: string;
  tag: string;
  messages: ClaimMessages;
  run(ctx: ServiceContext, user: AuthUser, body: ClaimsImportBody): Promise<ImportResult>;
}

/** A retailer's CSV import: the shared body, size limit and errors. */
function claimImportRoute(spec: ClaimImportSpec): RouteDef {
  const { messages } = spec;
  return defineRoute({
    method: 'POST',
    url: spec.url,
    summary: spec.summary,
    tag: spec.tag,
    body: claimsImportBodySchema,
    invalid: invalidAs({ body: 'Invalid import request' }),
    bodyLimit: CLAIM_LIMITS.importBodyBytes,
    internalErrorMessage: messages.importFailed,
    responses: {
      200: { description: messages.imported, schema: successEnvelope(importResultSchema) },
      ...importErrors,
    },
    async handler({ body, request }, ctx) {
      const data = await spec.run(ctx, userOf(request), body);
      return { message: messages.imported, data };
    },
  });
}

const chargebackIdParams = z.object({ id: z.uuid() });

/** Chargebacks (14), POS reports (15), their CSV imports and the dispute packet. */
export const claimRoutes: RouteDef[] = [
  claimListRoute({
    url: '/api/v1/chargebacks',
    summary: 'Chargebacks of the brands you see, newest first, filtered and paged',
    tag: 'Chargebacks',
    query: chargebackListQuerySchema,
    page: chargebackPageSchema,
    messages: CHARGEBACK_MESSAGES,
    badQuery: 'Invalid date for start_date. Expected YYYY-MM-DD (and the other parameters)',
    list: chargebackList,
  }),
  claimImportRoute({
    url: '/api/v1/chargebacks/import',
    summary:
      "Import a retailer's chargeback CSV: all rows or none, re-importing updates instead of duplicating",
    tag: 'Chargebacks',
    messages: CHARGEBACK_MESSAGES,
    run: importChargebacksCsv,
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/chargebacks/:id/dispute-packet',
    summary:
      'Dispute packet: a zip with a cover PDF, and per matched order its bills of lading, compliance report and cartons and pallets',
    tag: 'Chargebacks',
    params: chargebackIdParams,
    invalid: invalidAs({ params: 'Invalid chargeback ID format' }),
    internalErrorMessage: CHARGEBACK_MESSAGES.packetFailed,
    responses: {
      200: { description: 'application/zip, with Content-Disposition naming the file' },
      400: error('Invalid chargeback ID format'),
      401: error('Authentication failed'),
      404: error(CHARGEBACK_MESSAGES.notFound),
    },
    async handler({ params: { id }, request, reply }, ctx) {
      const packet = await disputePacket(ctx, userOf(request), id.toLowerCase());
      return reply
        .type('application/zip')
        .header('Content-Disposition', packet.contentDisposition)
        .send(Buffer.from(packet.bytes));
    },
  }),
  claimListRoute({
    url: '/api/v1/pos-reports',
    summary: 'Point-of-sale report rows of the brands you see, newest period first, paged',
    tag: 'POS reports',
    query: posListQuerySchema,
    page: posPageSchema,
    messages: POS_MESSAGES,
    badQuery: 'Invalid date format: start_date must be YYYY-MM-DD (and the other parameters)',
    list: posReportList,
  }),
  claimImportRoute({
    url: '/api/v1/pos-reports/import',
    summary:
      "Import a retailer's POS CSV: all rows or none, re-importing updates the figures instead of duplicating",
    tag: 'POS reports',
    messages: POS_MESSAGES,
    run: importPosCsv,
  }),
];
