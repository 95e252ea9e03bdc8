import {
  Navigate,
  createHashHistory,
  createRootRoute,
  createRoute,
  createRouter,
  redirect,
} from '@tanstack/react-router';
import { z } from 'zod';
import { AppShell } from '../components/AppShell';
import { FacilitiesScreen } from '../screens/facilities/FacilitiesScreen';
import { InventoryScreen } from '../screens/inventory/InventoryScreen';
import { OrderPage } from '../screens/orders/OrderPage';
import { EditOrderScreen, NewOrderScreen } from '../screens/orders/OrderFormScreens';
import { OrdersScreen } from '../screens/orders/OrdersScreen';
import { orderListSearchSchema } from '../screens/orders/orderSearch';

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

/** The Inventory screen's URL state; an id that is not a UUID is dropped rather than an error. */
export const inventorySearchSchema = z.object({
  facility: z.uuid().optional().catch(undefined),
  brand: z.uuid().optional().catch(undefined),
  /** The page of Recent snapshots (1 when absent). */
  history: z.number().int().min(2).optional().catch(undefined),
});
export type InventorySearch = z.infer<typeof inventorySearchSchema>;

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

const routeTree = rootRoute.addChildren([
  indexRoute,
  facilitiesRoute,
  inventoryRoute,
  ordersRoute,
  newOrderRoute,
  orderRoute,
  editOrderRoute,
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

/** The screens the main navigation lists, in order. */
export const NAV_ITEMS = [
  { to: '/facilities', label: 'Facilities' },
  { to: '/inventory', label: 'Inventory' },
  { to: '/orders', label: 'Orders' },
] as const;
