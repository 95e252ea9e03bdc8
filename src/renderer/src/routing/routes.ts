export type RouteId = 'facilities' | 'inventory';

export interface RouteDefinition {
  id: RouteId;
  label: string;
  /** The location hash, e.g. `#/facilities`. */
  hash: string;
}

export const ROUTES: readonly RouteDefinition[] = [
  { id: 'facilities', label: 'Facilities', hash: '#/facilities' },
  { id: 'inventory', label: 'Inventory', hash: '#/inventory' },
];

export const DEFAULT_ROUTE: RouteDefinition = ROUTES[0]!;

/** The route a hash names, or undefined for an unknown or empty hash. */
export function routeForHash(hash: string): RouteDefinition | undefined {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '');
  return ROUTES.find((route) => route.hash === `#${path}`);
}
