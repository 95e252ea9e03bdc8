import type { RouteDef } from '../route-def';

/** Invoices (12, 13) and billing prices. */
export const billingRoutes: RouteDef[] = [];
