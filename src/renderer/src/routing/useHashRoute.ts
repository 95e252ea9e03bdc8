import { useEffect, useSyncExternalStore } from 'react';
import { DEFAULT_ROUTE, routeForHash, type RouteDefinition } from './routes';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

const readHash = () => window.location.hash;

/** The current route from `location.hash`; an unknown hash is rewritten to the default route. */
export function useHashRoute(): RouteDefinition {
  const hash = useSyncExternalStore(subscribe, readHash);
  const route = routeForHash(hash);

  useEffect(() => {
    // replace() keeps the unknown address out of the history, and fires hashchange.
    if (!route) window.location.replace(DEFAULT_ROUTE.hash);
  }, [route]);

  return route ?? DEFAULT_ROUTE;
}
