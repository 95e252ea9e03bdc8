import {
  keepPreviousData,
  skipToken,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { describeError } from './ApiError';
import { useApi } from './ApiContext';
import {
  fetchConnections,
  fetchDeliveryDocument,
  fetchSnapshot,
  listSnapshots,
  retryDelivery,
  type AdviceScope,
  type SnapshotDelivery,
} from './inventory';
import { lookupKeys } from './lookupQueries';

/**
 * Query keys. Everything about the state of deliveries sits under one prefix, so a write
 * (a send, a retry) invalidates every view of it at once: Recent snapshots and Send results.
 */
export const queryKeys = {
  connections: (scope: AdviceScope) =>
    [...lookupKeys.lookups, 'connections', scope.facilityId, scope.brandId] as const,
  deliveryState: ['delivery-state'] as const,
  snapshots: (scope: AdviceScope, page: number, pageSize: number) =>
    [...queryKeys.deliveryState, 'list', scope.facilityId, scope.brandId, page, pageSize] as const,
  snapshot: (snapshotId: string) => [...queryKeys.deliveryState, 'one', snapshotId] as const,
  // A stored document never changes, so it lives outside the delivery state.
  deliveryDocument: (deliveryId: string) => ['delivery-document', deliveryId] as const,
};

/** What a screen needs to know about one load. */
export type LoadState<T> =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: T };

/** A query as a LoadState; cached data stays `ready` while it is refreshed in the background. */
export function loadStateOf<T>(query: UseQueryResult<T>, enabled = true): LoadState<T> {
  if (!enabled) return { status: 'idle' };
  if (query.isError) return { status: 'error', message: describeError(query.error) };
  if (query.data !== undefined) return { status: 'ready', data: query.data };
  return { status: 'loading' };
}

/** The connections an advice for the scope reaches (null scope: nothing to load). */
export function useAdviceConnections(scope: AdviceScope | null) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.connections(scope ?? { facilityId: '', brandId: '' }),
    queryFn: scope ? ({ signal }) => fetchConnections(api, scope, signal) : skipToken,
  });
}

/** Deliveries that will change by themselves: in flight, or waiting for the next automatic try. */
export function hasDeliveriesInMotion(deliveries: readonly SnapshotDelivery[]): boolean {
  return deliveries.some(
    (delivery) =>
      delivery.status === 'PENDING' ||
      (delivery.status === 'FAILURE' && !delivery.given_up && !!delivery.next_attempt_at),
  );
}

/** How often a view of deliveries in motion asks again, to show the outbox's progress. */
export const DELIVERY_POLL_MS = 5_000;

export function useSnapshots(scope: AdviceScope, page: number, pageSize: number) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.snapshots(scope, page, pageSize),
    queryFn: ({ signal }) => listSnapshots(api, scope, { page, pageSize }, signal),
    staleTime: 0,
    // Paging keeps the current page on screen until the next one is in.
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((snapshot) => hasDeliveriesInMotion(snapshot.deliveries))
        ? DELIVERY_POLL_MS
        : false,
  });
}

/** One snapshot with the current state of its deliveries (null id: nothing to load). */
export function useSnapshot(snapshotId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.snapshot(snapshotId ?? ''),
    queryFn: ({ signal }) => fetchSnapshot(api, snapshotId ?? '', signal),
    enabled: snapshotId !== null,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data && hasDeliveriesInMotion(query.state.data.deliveries)
        ? DELIVERY_POLL_MS
        : false,
  });
}

export function useDeliveryDocument(deliveryId: string) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.deliveryDocument(deliveryId),
    queryFn: ({ signal }) => fetchDeliveryDocument(api, deliveryId, signal),
    staleTime: Infinity,
  });
}

/** After a write that changes deliveries: every list and detail of them loads again. */
export function invalidateDeliveryState(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.deliveryState });
}

/** Resend a pending or failed delivery; every view of deliveries refreshes afterwards. */
export function useRetryDelivery() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => retryDelivery(api, deliveryId),
    onSettled: () => invalidateDeliveryState(queryClient),
  });
}

/** Calls `onLoaded` each time the query gets a new answer (not again for the same one). */
export function useOnQueryData<T>(query: UseQueryResult<T>, onLoaded: (data: T) => void) {
  const latest = useRef(onLoaded);
  latest.current = onLoaded;
  const { data, dataUpdatedAt } = query;
  useEffect(() => {
    if (data !== undefined) latest.current(data);
  }, [data, dataUpdatedAt]);
}
