import type { RouteDef } from './route-def';
import { analyticsRoutes } from '../analytics/routes';
import { authRoutes, lookupRoutes } from '../access/routes';
import { billingRoutes } from '../billing/routes';
import { claimRoutes } from '../claims/routes';
import { documentRoutes } from '../documents/routes';
import { ediRoutes } from '../edi/routes';
import { ediDocumentRoutes, ediInboundRoutes, ediInboxRoutes } from '../edi';
import { fulfilmentRoutes } from '../fulfilment/routes';
import { healthRoutes } from './health-routes';
import { inventoryConnectionRoutes, inventoryRoutes } from '../inventory/routes';
import { orderBolRoutes, orderReadRoutes, orderWriteRoutes } from '../orders/routes';
import { syncHealthRoutes, syncRoutes, syncSettingsRoutes } from '../sync/routes';
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
  ...ediRoutes,
  ...ediDocumentRoutes,
  ...ediInboundRoutes,
  ...ediInboxRoutes,
  ...transactionRoutes,
  ...analyticsRoutes,
  ...billingRoutes,
  ...claimRoutes,
  ...syncRoutes,
  ...syncSettingsRoutes,
  ...syncHealthRoutes,
];
