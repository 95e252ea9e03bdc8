import { syncHealthSchema } from '../../shared/sync-health';
import { errorEnvelopeSchema } from '../http/openapi-schemas';
import { defineRoute, type RouteDef } from '../http/route-def';
import { requireMonitoringToken, syncHealth } from './health';

const error = (description: string) => ({ description, schema: errorEnvelopeSchema });

/** The central's health for monitoring (docs/operations.md, Monitoring). */
export const syncHealthRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/sync/v1/health',
    summary:
      "The central's pull lag per device, oldest open transaction and pending deliveries (monitoring token)",
    tag: 'Sync',
    // Not a user's or a device's token: the monitoring token, checked by the handler.
    public: true,
    responses: {
      200: { description: 'The figures', schema: syncHealthSchema },
      401: error('No monitoring token, or another one'),
      403: error('The central was started without --monitoring-token'),
      404: error('This service is not a central service'),
    },
    async handler({ request }, ctx) {
      requireMonitoringToken(ctx, request.headers.authorization);
      return syncHealth(ctx);
    },
  }),
];
