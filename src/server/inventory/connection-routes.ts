import { adviceConnectionListSchema, connectionListQuerySchema } from '../../shared/inventory';
import { listAdviceConnections } from './connections';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, userOf, type RouteDef } from '../http/route-def';

export const inventoryConnectionRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/inventory/connections',
    summary:
      'The retailer connections an advice for a brand at a facility reaches (kind, enabled), before any preview',
    tag: 'Inventory advice',
    query: connectionListQuerySchema,
    responses: {
      200: {
        description: 'Connections retrieved successfully',
        schema: successEnvelope(adviceConnectionListSchema),
      },
      400: { description: 'Invalid query parameters', schema: errorEnvelopeSchema },
      401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
      403: {
        description: 'No admin access for the brand and facility',
        schema: errorEnvelopeSchema,
      },
      404: {
        description: 'Unknown facility, or no advice configuration',
        schema: errorEnvelopeSchema,
      },
    },
    async handler({ query, request }, ctx) {
      const data = await listAdviceConnections(ctx, userOf(request), {
        brandId: query.brand_id,
        facilityId: query.facility_id,
      });
      return { message: 'Connections retrieved successfully', data };
    },
  }),
];
