import type { RouteDef } from '../route-def';
import { authRoutes } from './auth';
import { healthRoutes } from './health';
import { inventoryRoutes } from './inventory';
import { inventoryConnectionRoutes } from './inventory-connections';
import { lookupRoutes } from './lookups';
import { orderBolRoutes } from './order-bol';
import { orderReadRoutes } from './order-reads';
import { orderWriteRoutes } from './orders';

/** Every API route, in the order the OpenAPI document lists them. */
export const allRoutes: RouteDef[] = [
  ...authRoutes,
  ...healthRoutes,
  ...inventoryRoutes,
  ...inventoryConnectionRoutes,
  ...lookupRoutes,
  ...orderBolRoutes,
  ...orderWriteRoutes,
  ...orderReadRoutes,
];
