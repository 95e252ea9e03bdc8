import type { RouteDef } from '../route-def';

/** Transaction log (11). */
export const transactionRoutes: RouteDef[] = [];
