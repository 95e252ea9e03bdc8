import {
  Navigate,
  createHashHistory,
  createRootRoute,
  createRoute,
  createRouter,
  redirect,
} from '@tanstack/react-router';
import { AppShell } from '../shell/AppShell';
import { FacilitiesScreen } from '../screens/facilities/FacilitiesScreen';
import { InventoryScreen } from '../screens/inventory/InventoryScreen';
import { inventorySearchSchema } from '../screens/inventory/inventorySearch';
import { OrderPage } from '../screens/orders/OrderPage';
import { EditOrderScreen, NewOrderScreen } from '../screens/orders/OrderFormScreens';
import { OrdersScreen } from '../screens/orders/OrdersScreen';
import { orderListSearchSchema } from '../screens/orders/orderSearch';
import { EdiInboxScreen } from '../screens/edi/EdiInboxScreen';
import { TransactionsScreen } from '../screens/transactions/TransactionsScreen';
import { transactionSearchSchema } from '../screens/transactions/transactionSearch';
import { AnalyticsScreen } from '../screens/analytics/AnalyticsScreen';
import { analyticsSearchSchema } from '../screens/analytics/analyticsSearch';
import { BillingScreen } from '../screens/billing/BillingScreen';
import { billingSearchSchema } from '../screens/billing/billingSearch';
import { PricesScreen } from '../screens/billing/PricesScreen';
import { billingPricesSearchSchema } from '../screens/billing/pricesForm';
import { ChargebacksScreen } from '../screens/chargebacks/ChargebacksScreen';
import { chargebacksSearchSchema } from '../screens/chargebacks/chargebacksSearch';
import { PackingScreen } from '../screens/packing/PackingScreen';
import { packingSearchSchema } from '../screens/packing/packingSearch';
import { PosScreen } from '../screens/pos/PosScreen';
import { posSearchSchema } from '../screens/pos/posSearch';
import { SettingsScreen } from '../screens/settings/SettingsScreen';
import { settingsSearchSchema } from '../screens/settings/settingsSearch';
import { SyncScreen } from '../screens/sync/SyncScreen';
import { EdiDocumentsScreen } from '../screens/edi/EdiDocumentsScreen';
import { ediDocumentsSearchSchema } from '../screens/edi/ediDocumentsSearch';
import { syncSearchSchema } from '../screens/sync/syncSearch';

const rootRoute = createRootRoute({
  component: AppShell,
  // An unknown address shows the first screen; replace keeps the bad one out of the history.
  notFoundComponent: () => <Navigate to="/facilities" replace />,
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/facilities', replace: true });
  },
});

const facilitiesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'facilities',
  component: FacilitiesScreen,
});

const inventoryRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'inventory',
  validateSearch: inventorySearchSchema,
  component: InventoryScreen,
});

/** Orders: the list (search, filters, sort and page in the URL), a new order, one order, its edit form. */
const ordersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'orders',
  validateSearch: orderListSearchSchema,
  component: OrdersScreen,
});
const newOrderRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'orders/new',
  component: NewOrderScreen,
});
const orderRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'orders/$orderId',
  component: OrderPage,
});
const editOrderRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'orders/$orderId/edit',
  component: EditOrderScreen,
});

/** The EDI inbox: inbound interchanges, their outcomes, Reprocess, and the import drop zone. */
const ediInboxRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'edi/inbox',
  component: EdiInboxScreen,
});

/** Packing one order on the floor: scans, cartons, pallets, stage, load, ship. */
const packingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'orders/$orderId/pack',
  validateSearch: packingSearchSchema,
  component: PackingScreen,
});
const analyticsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'analytics',
  validateSearch: analyticsSearchSchema,
  component: AnalyticsScreen,
});
const billingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'billing',
  validateSearch: billingSearchSchema,
  component: BillingScreen,
});
/** A brand's billing prices, under Billing. */
const billingPricesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'billing/prices',
  validateSearch: billingPricesSearchSchema,
  component: PricesScreen,
});
const chargebacksRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'chargebacks',
  validateSearch: chargebacksSearchSchema,
  component: ChargebacksScreen,
});
const posRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'pos',
  validateSearch: posSearchSchema,
  component: PosScreen,
});
const settingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'settings',
  validateSearch: settingsSearchSchema,
  component: SettingsScreen,
});

/** Offline-first sync: this installation's state and the conflicts (shown, page) in the URL. */
const syncRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sync',
  validateSearch: syncSearchSchema,
  component: SyncScreen,
});

/** The transaction log: filters, search, sort, page and the open row in the URL. */
const transactionsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'transactions',
  validateSearch: transactionSearchSchema,
  component: TransactionsScreen,
});

/** Retailer documents sent for the orders the user sees: status, type and page in the URL. */
const ediDocumentsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'edi/documents',
  validateSearch: ediDocumentsSearchSchema,
  component: EdiDocumentsScreen,
});

const routeTree = rootRoute.addChildren([
  indexRoute,
  facilitiesRoute,
  inventoryRoute,
  ordersRoute,
  newOrderRoute,
  orderRoute,
  editOrderRoute,
  ediInboxRoute,
  transactionsRoute,
  packingRoute,
  analyticsRoute,
  billingRoute,
  billingPricesRoute,
  chargebacksRoute,
  posRoute,
  settingsRoute,
  syncRoute,
  ediDocumentsRoute,
]);

/** The screens, with their state in the URL's hash (`#/inventory?facility=…&brand=…`). */
export function createAppRouter() {
  // Hash history: the Electron window and the static file server serve one index.html, and a
  // hash address survives a reload without server-side routes.
  return createRouter({ routeTree, history: createHashHistory() });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}

declare module '@tanstack/history' {
  interface HistoryState {
    /**
     * What the screen left behind just did ("Order saved."), for the next one to show: the live
     * region says it to a screen reader, but a sighted keyboard user looks at the new screen.
     */
    doneNote?: string;
  }
}
