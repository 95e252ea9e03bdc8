import { DISK_FULL_HEALTH_MESSAGE, healthSchema } from '../../shared/health';
import { APP_VERSION } from '../core/version';
import type { ServiceContext } from '../core/context';
import { storageStatusOf } from '../db/storage-status';
import { defineRoute, type RouteDef } from './route-def';

/** How long a successful database check stands for: integrations poll health in tight loops. */
export const HEALTH_CHECK_TTL_MS = 1000;

const HEALTHY = { status: 'ok', version: APP_VERSION } as const;
/**
 * Reads still work on a full disk, so health stays 200 and says what is wrong. Health needs no
 * token, so it names no path; the refused write's answer does (docs/decisions.md).
 */
const DISK_FULL = {
  status: 'disk_full',
  version: APP_VERSION,
  message: DISK_FULL_HEALTH_MESSAGE,
} as const;
/** When the database last answered the check, per service. */
const lastCheckedAt = new WeakMap<ServiceContext, number>();

/** A trivial query proves the database answers, not just the HTTP loop; at most once a second. */
async function checkDatabase(ctx: ServiceContext): Promise<void> {
  const now = ctx.clock.now().getTime();
  const last = lastCheckedAt.get(ctx);
  if (last !== undefined && now - last >= 0 && now - last < HEALTH_CHECK_TTL_MS) return;
  await ctx.db.selectFrom('organizations').select('id').limit(1).execute();
  lastCheckedAt.set(ctx, now);
}

export const healthRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/health',
    summary: 'Service health (no token needed)',
    tag: 'Service',
    public: true,
    responses: {
      200: {
        description:
          'The service can serve (the database answered within the last second); `disk_full` ' +
          'while the disk holding the data is full (reads work, writes answer 507)',
        schema: healthSchema,
      },
    },
    async handler(_input, ctx) {
      await checkDatabase(ctx);
      return storageStatusOf(ctx.db).fullSince ? DISK_FULL : HEALTHY;
    },
  }),
];
