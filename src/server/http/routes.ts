import type { RouteDef } from './route-def';
import { analyticsRoutes } from '../analytics/routes';
import { authRoutes } from '../access/auth-routes';
import { billingRoutes } from '../billing/routes';
import { claimRoutes } from '../claims/routes';
import { documentRoutes } from '../documents/routes';
import { fulfilmentRoutes } from '../fulfilment/routes';
import { healthRoutes } from './health-routes';
import { inventoryRoutes } from '../inventory/routes';
import { inventoryConnectionRoutes } from '../inventory/connection-routes';
import { lookupRoutes } from '../access/lookup-routes';
import { orderBolRoutes } from '../orders/bol-routes';
import { orderReadRoutes } from '../orders/read-routes';
import { orderWriteRoutes } from '../orders/write-routes';
import { syncRoutes } from '../sync/routes';
import { syncSettingsRoutes } from '../sync/settings-routes';
import { transactionRoutes } from '../transactions/routes';

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
  ...fulfilmentRoutes,
  ...documentRoutes,
  ...transactionRoutes,
  ...analyticsRoutes,
  ...billingRoutes,
  ...claimRoutes,
  ...syncRoutes,
  ...syncSettingsRoutes,
];
