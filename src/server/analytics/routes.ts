import { z } from 'zod';
import {
  analyticsFacilityParamsSchema,
  analyticsV1QuerySchema,
  analyticsV1RowSchema,
  analyticsV2QuerySchema,
  analyticsV2RowSchema,
} from '../../shared/analytics';
import { analyticsTableV1, analyticsTableV2 } from './table';
import { UUID_TEXT } from '../../shared/ids';
import { invalidRequest } from '../core/errors';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { invalidInput } from '../http/parse';
import { defineRoute, userOf, type RouteDef } from '../http/route-def';

/** The path's facility id; the refinement leaves the documented schema (a string) as it is. */
const facilityParamsSchema = analyticsFacilityParamsSchema.refine(({ facility_id }) =>
  UUID_TEXT.test(facility_id),
);

const RETRIEVED = 'Orders analytics table retrieved successfully';
const FAILED = 'Failed to retrieve orders analytics';

/** Orders analytics (9, 10). */
export const analyticsRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/v2/orders/analytics/table/:facility_id',
    summary:
      "Orders analytics v2: a facility's orders, newest first, with counts from their pallets, cartons and activity",
    tag: 'Analytics',
    params: facilityParamsSchema,
    query: analyticsV2QuerySchema,
    // A bad facility id answers without details; a bad query lists its issues.
    invalid: ({ part, issues }) =>
      part === 'params'
        ? invalidRequest('Invalid facility ID format')
        : invalidInput('Invalid query parameters', issues),
    internalErrorMessage: FAILED,
    responses: {
      200: { description: RETRIEVED, schema: successEnvelope(z.array(analyticsV2RowSchema)) },
      400: {
        description: 'Invalid facility ID format, or invalid query parameters',
        schema: errorEnvelopeSchema,
      },
      401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
      404: {
        description: 'Facility not found (also a facility the user does not see)',
        schema: errorEnvelopeSchema,
      },
      500: { description: FAILED, schema: errorEnvelopeSchema },
    },
    async handler({ params: { facility_id }, query, request }, ctx) {
      const data = await analyticsTableV2(ctx, userOf(request), facility_id.toLowerCase(), query);
      return { data, message: RETRIEVED };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders/analytics/table',
    summary:
      'Orders analytics v1: the orders of every facility the user sees, newest first, with their counts',
    tag: 'Analytics',
    query: analyticsV1QuerySchema,
    internalErrorMessage: FAILED,
    responses: {
      200: { description: RETRIEVED, schema: successEnvelope(z.array(analyticsV1RowSchema)) },
      400: { description: 'Invalid query parameters', schema: errorEnvelopeSchema },
      401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
      500: { description: FAILED, schema: errorEnvelopeSchema },
    },
    async handler({ query, request }, ctx) {
      const data = await analyticsTableV1(ctx, userOf(request), query);
      return { message: RETRIEVED, data };
    },
  }),
];
