import { z } from 'zod';
import { APP_VERSION } from '../../version';
import type { RouteDef } from '../route-def';

export const healthRoutes: RouteDef[] = [
  {
    method: 'GET',
    url: '/api/health',
    summary: 'Service health (no token needed)',
    tag: 'Service',
    public: true,
    responses: {
      200: {
        description: 'The service can serve',
        schema: z.object({ status: z.literal('ok'), version: z.string() }),
      },
    },
    async handler(_request, _reply, ctx) {
      // A trivial query proves the database answers, not just the HTTP loop.
      await ctx.db.selectFrom('organizations').select('id').limit(1).execute();
      return { status: 'ok', version: APP_VERSION };
    },
  },
];
