import type { RouteDef } from '../route-def';

/** Labels, packing slips, compliance report (16), label printer (issue 8). */
export const documentRoutes: RouteDef[] = [];
