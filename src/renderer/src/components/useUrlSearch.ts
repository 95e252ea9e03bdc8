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

/** A screen's URL state and a function that replaces it (filters, sort and page live there). */
export function useUrlSearch<TFrom extends RouteId>(
  from: TFrom,
): [SearchOf<TFrom>, (next: SearchOf<TFrom>) => void] {
  const search = useSearch({ from }) as SearchOf<TFrom>;
  // The route's own schema types `next`; the router's types cannot follow a generic route id.
  const navigate = useNavigate({ from: from as never });
  const go = (next: SearchOf<TFrom>) => void navigate({ search: next } as never);
  return [search, go];
}
