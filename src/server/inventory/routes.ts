import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  advicePreviewSchema,
  adviceResponseDataSchema,
  adviceScopeParamsSchema,
  deliveryIdParamsSchema,
  inventoryAdviceRequestDocSchema,
  retryResultSchema,
  snapshotDetailSchema,
  snapshotIdParamsSchema,
  snapshotListQuerySchema,
  snapshotPageSchema,
} from '../../shared/inventory';
import { sendInventoryAdvice, type AdviceResponse } from './advise';
import { deliveredDocument, retryDelivery, snapshotDetail, snapshotHistory } from './history';
import { previewInventoryAdvice } from './preview';
import type { ServiceContext } from '../core/context';
import type { AdviceScope } from './targets';
import { invalidRequest } from '../core/errors';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import {
  defineRoute,
  invalidAs,
  userOf,
  type InvalidHook,
  type RouteDef,
  type RouteRequest,
} from '../http/route-def';

const FACILITY_URL = '/api/v1/inventory/brand/:brand_id/facility/:facility_id';
const BRAND_URL = '/api/v1/inventory/brand';

/** Path ids are field problems of the "Validation failed" shape, like body fields. */
const invalidScope: InvalidHook = ({ issues }) =>
  invalidRequest('Validation failed', {
    details: issues.map((issue) => ({
      loc: ['path', ...issue.path.map(String)],
      msg: 'Input should be a valid UUID',
      type: 'uuid_parsing',
    })),
  });

type AdviceParams = z.output<typeof adviceScopeParamsSchema>;

/** A facility route's parsed path, or the brand-wide scope of a route without one. */
const scopeOf = (params: AdviceParams | undefined): AdviceScope =>
  params
    ? { kind: 'facility', brandId: params.brand_id, facilityId: params.facility_id }
    : { kind: 'brand' };

/**
 * What the advice routes get. The body stays unparsed here: it is validated against the targets
 * the scope resolves to (and after the grant checks), in the domain (validate.ts).
 */
interface AdviceInput {
  params?: AdviceParams;
  request: RouteRequest;
  reply: FastifyReply;
}

/** 200 all delivered, 207 some, 502 none (see docs/decisions.md). */
function sendAdvice(reply: FastifyReply, response: AdviceResponse) {
  if (response.outcome === 'all_failed') {
    return reply
      .status(502)
      .send({ message: response.message, data: response.data, error: { code: 'DELIVERY_FAILED' } });
  }
  return reply
    .status(response.outcome === 'partial' ? 207 : 200)
    .send({ message: response.message, data: response.data });
}

const adviceResponses = {
  200: {
    description: 'Every connection succeeded',
    schema: successEnvelope(adviceResponseDataSchema),
  },
  207: {
    description: 'Some connections failed',
    schema: successEnvelope(adviceResponseDataSchema),
  },
  400: {
    description:
      'Validation failed (details) or Inventory advice validation failed (errors); nothing sent',
    schema: errorEnvelopeSchema,
  },
  401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
  403: { description: 'No admin access for the brand and facility', schema: errorEnvelopeSchema },
  404: { description: 'Unknown facility, or no advice configuration', schema: errorEnvelopeSchema },
  502: {
    description: 'Every connection failed (code DELIVERY_FAILED, data as 200)',
    schema: errorEnvelopeSchema.extend({ data: adviceResponseDataSchema }),
  },
};

const previewResponses = {
  200: {
    description: 'What each connection would receive, and what changes',
    schema: successEnvelope(advicePreviewSchema),
  },
  400: adviceResponses[400],
  401: adviceResponses[401],
  403: adviceResponses[403],
  404: adviceResponses[404],
};

async function advice({ params, request, reply }: AdviceInput, ctx: ServiceContext) {
  return sendAdvice(
    reply,
    await sendInventoryAdvice(ctx, userOf(request), scopeOf(params), request.body),
  );
}

async function preview({ params, request }: AdviceInput, ctx: ServiceContext) {
  return previewInventoryAdvice(ctx, userOf(request), scopeOf(params), request.body);
}

const invalidDelivery = invalidAs({ params: 'Invalid delivery ID format' });

export const inventoryRoutes: RouteDef[] = [
  defineRoute({
    method: 'POST',
    url: FACILITY_URL,
    summary: 'Send inventory advice for a brand at a facility',
    tag: 'Inventory advice',
    params: adviceScopeParamsSchema,
    unparsed: { body: inventoryAdviceRequestDocSchema },
    invalid: invalidScope,
    responses: adviceResponses,
    handler: advice,
  }),
  defineRoute({
    method: 'POST',
    url: BRAND_URL,
    summary: "Send inventory advice for the credentials' brand across all its organisations",
    tag: 'Inventory advice',
    unparsed: { body: inventoryAdviceRequestDocSchema },
    responses: {
      ...adviceResponses,
      409: {
        description: 'On a workstation: a brand-wide advice is sent from the central service',
        schema: errorEnvelopeSchema,
      },
    },
    handler: advice,
  }),
  defineRoute({
    method: 'POST',
    url: `${FACILITY_URL}/preview`,
    summary: 'Dry run of endpoint 2: documents and changes per connection; nothing sent or stored',
    tag: 'Inventory advice',
    params: adviceScopeParamsSchema,
    unparsed: { body: inventoryAdviceRequestDocSchema },
    invalid: invalidScope,
    responses: previewResponses,
    handler: preview,
  }),
  defineRoute({
    method: 'POST',
    url: `${BRAND_URL}/preview`,
    summary: 'Dry run of endpoint 3: documents and changes per connection; nothing sent or stored',
    tag: 'Inventory advice',
    unparsed: { body: inventoryAdviceRequestDocSchema },
    responses: previewResponses,
    handler: preview,
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/inventory/snapshots',
    summary: 'Past inventory snapshots with their per-connection results, newest first',
    tag: 'Inventory advice',
    query: snapshotListQuerySchema,
    responses: {
      200: {
        description: 'Snapshots retrieved successfully',
        schema: successEnvelope(snapshotPageSchema),
      },
      400: adviceResponses[400],
    },
    async handler({ query, request }, ctx) {
      const data = await snapshotHistory(ctx, userOf(request), {
        brandId: query.brand_id,
        facilityId: query.facility_id,
        page: query.page,
        pageSize: query.page_size,
      });
      return { message: 'Snapshots retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/inventory/snapshots/:snapshot_id',
    summary: 'One snapshot: its items and deliveries',
    tag: 'Inventory advice',
    params: snapshotIdParamsSchema,
    responses: {
      200: {
        description: 'Snapshot retrieved successfully',
        schema: successEnvelope(snapshotDetailSchema),
      },
      404: adviceResponses[404],
    },
    invalid: invalidAs({ params: 'Invalid snapshot ID format' }),
    async handler({ params, request }, ctx) {
      const data = await snapshotDetail(ctx, userOf(request), params.snapshot_id);
      return { message: 'Snapshot retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/inventory/deliveries/:delivery_id/document',
    summary: 'The exact document sent to a connection (X12 846 text or JSON feed)',
    tag: 'Inventory advice',
    params: deliveryIdParamsSchema,
    responses: {
      200: { description: 'The document, with its own content type' },
      404: adviceResponses[404],
    },
    invalid: invalidDelivery,
    async handler({ params, request, reply }, ctx) {
      const document = await deliveredDocument(ctx, userOf(request), params.delivery_id);
      return reply
        .type(document.contentType)
        .header('Content-Disposition', `inline; filename="${document.fileName.replace(/"/g, '')}"`)
        .send(document.body);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/inventory/deliveries/:delivery_id/retry',
    summary:
      'Send a pending or failed delivery again now (same document, same control numbers); the service also does so by itself',
    tag: 'Inventory advice',
    params: deliveryIdParamsSchema,
    responses: {
      200: {
        description: 'Delivery attempted; see data.success',
        schema: successEnvelope(retryResultSchema),
      },
      400: adviceResponses[400],
      403: adviceResponses[403],
      404: adviceResponses[404],
    },
    invalid: invalidDelivery,
    async handler({ params, request }, ctx) {
      return retryDelivery(ctx, userOf(request), params.delivery_id);
    },
  }),
];

export { inventoryConnectionRoutes } from './connection-routes';
