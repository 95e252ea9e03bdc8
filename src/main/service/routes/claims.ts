import type { RouteDef } from '../route-def';

/** Chargebacks (14), POS reports (15), their CSV imports and the dispute packet. */
export const claimRoutes: RouteDef[] = [];
