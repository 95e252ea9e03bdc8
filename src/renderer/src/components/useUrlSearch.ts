import { useCallback } from 'react';
import {
  useNavigate,
  useSearch,
  type RegisteredRouter,
  type RouteById,
  type RouteIds,
} from '@tanstack/react-router';

type RouteId = RouteIds<RegisteredRouter['routeTree']>;
type SearchOf<TFrom extends RouteId> = RouteById<
  RegisteredRouter['routeTree'],
  TFrom
>['types']['fullSearchSchema'];

/** How a change of URL state enters the history. */
export interface UrlSearchOptions {
  /** Replace the current entry (a pick from a list is not a place to go Back to). */
  replace?: boolean;
}

/**
 * A screen's URL state and a function that replaces it (filters, sort and page live there). The
 * function stays the same between renders, so effects and callbacks may depend on it.
 */
export function useUrlSearch<TFrom extends RouteId>(
  from: TFrom,
): [SearchOf<TFrom>, (next: SearchOf<TFrom>, options?: UrlSearchOptions) => void] {
  const search = useSearch({ from }) as SearchOf<TFrom>;
  // The route's own schema types `next`; the router's types cannot follow a generic route id.
  const navigate = useNavigate({ from: from as never });
  const go = useCallback(
    (next: SearchOf<TFrom>, options?: UrlSearchOptions) =>
      void navigate({ search: next, ...(options?.replace ? { replace: true } : {}) } as never),
    [navigate],
  );
  return [search, go];
}
