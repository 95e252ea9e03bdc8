import type { RouteDef } from '../route-def';
import { analyticsRoutes } from './analytics';
import { authRoutes } from './auth';
import { billingRoutes } from './billing';
import { claimRoutes } from './claims';
import { documentRoutes } from './documents';
import { fulfilmentRoutes } from './fulfilment';
import { healthRoutes } from './health';
import { inventoryRoutes } from './inventory';
import { inventoryConnectionRoutes } from './inventory-connections';
import { lookupRoutes } from './lookups';
import { orderBolRoutes } from './order-bol';
import { orderReadRoutes } from './order-reads';
import { orderWriteRoutes } from './orders';
import { syncRoutes } from './sync';
import { syncSettingsRoutes } from './sync-settings';
import { transactionRoutes } from './transactions';

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
