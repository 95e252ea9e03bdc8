import { z } from 'zod';
import {
  brandSchema,
  facilityIdParamsSchema,
  facilitySchema,
  retailerQuerySchema,
  retailerSchema,
} from '../../shared/lookups';
import { brandsAt, facilitiesOf, retailersAt } from './lookups';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, invalidAs, userOf, type RouteDef } from '../http/route-def';

const INVALID_FACILITY_ID = 'Invalid facility ID format';

export const lookupRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/user-facilities/v1/facilities',
    summary: 'List the facilities of the signed-in user',
    tag: 'Lookups',
    internalErrorMessage: 'Error fetching facilities',
    responses: {
      200: { description: 'Facilities fetched', schema: successEnvelope(z.array(facilitySchema)) },
      401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
    },
    async handler({ request }, ctx) {
      return { data: await facilitiesOf(ctx, userOf(request)), message: 'Facilities fetched' };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/retailer/v1/facility/:facility_id',
    summary: 'List the retailers connected at a facility, optionally for one brand',
    tag: 'Lookups',
    params: facilityIdParamsSchema,
    query: retailerQuerySchema,
    responses: {
      200: {
        description: 'Retailer info retrieved successfully',
        schema: successEnvelope(z.array(retailerSchema)),
      },
      400: { description: 'Invalid facility or brand ID format', schema: errorEnvelopeSchema },
      404: { description: 'No retailers found', schema: errorEnvelopeSchema },
    },
    invalid: invalidAs({ params: INVALID_FACILITY_ID, query: 'Invalid brand ID format' }),
    async handler({ params, query, request }, ctx) {
      const data = await retailersAt(ctx, userOf(request), params.facility_id, query.brand_id);
      return { data, message: 'Retailer info retrieved successfully' };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/brand/v1/facility/:facility_id',
    summary: 'List the brands working at a facility',
    tag: 'Lookups',
    params: facilityIdParamsSchema,
    responses: {
      200: {
        description: 'Brand info retrieved successfully',
        schema: successEnvelope(z.array(brandSchema)),
      },
      400: { description: 'Invalid facility ID format', schema: errorEnvelopeSchema },
      404: { description: 'No brands found (code NO_BRANDS_FOUND)', schema: errorEnvelopeSchema },
    },
    invalid: invalidAs({ params: INVALID_FACILITY_ID }),
    async handler({ params, request }, ctx) {
      const data = await brandsAt(ctx, userOf(request), params.facility_id);
      return { data, message: 'Brand info retrieved successfully' };
    },
  }),
];
