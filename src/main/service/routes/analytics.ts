import type { RouteDef } from '../route-def';

/** Orders analytics (9, 10). */
export const analyticsRoutes: RouteDef[] = [];
