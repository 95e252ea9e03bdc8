import type { RouteDef } from '../route-def';

/** Fulfilment steps on the floor (issue 8). */
export const fulfilmentRoutes: RouteDef[] = [];
