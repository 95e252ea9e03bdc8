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

const routeTree = rootRoute.addChildren([indexRoute, facilitiesRoute, inventoryRoute]);

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
] as const;
