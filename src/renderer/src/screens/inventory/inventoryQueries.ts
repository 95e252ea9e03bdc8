import {
  keepPreviousData,
  skipToken,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import {
  fetchConnections,
  fetchDeliveryDocument,
  fetchSnapshot,
  listSnapshots,
  retryDelivery,
  type AdviceConnection,
  type AdviceScope,
  type SnapshotDelivery,
} from '../../api/inventory';
import { lookupKeys } from '../../api/lookupQueries';

/**
 * The Inventory screen's query keys. Everything about the state of deliveries sits under one
 * prefix, so a write (a send, a retry) invalidates every view of it at once: Recent snapshots and
 * Send results. The connections a scope reaches sit with the lookups.
 */
export const inventoryKeys = {
  connections: (scope: AdviceScope) =>
    [...lookupKeys.lookups, 'connections', scope.facilityId, scope.brandId] as const,
  deliveryState: ['delivery-state'] as const,
  snapshots: (scope: AdviceScope, page: number, pageSize: number) =>
    [
      ...inventoryKeys.deliveryState,
      'list',
      scope.facilityId,
      scope.brandId,
      page,
      pageSize,
    ] as const,
  snapshot: (snapshotId: string) => [...inventoryKeys.deliveryState, 'one', snapshotId] as const,
  // A stored document never changes, so it lives outside the delivery state.
  deliveryDocument: (deliveryId: string) => ['delivery-document', deliveryId] as const,
};

/** The retailers whose enabled direct feed needs a status at quantity 0, sorted by name. */
export function statusRetailersOf(connections: readonly AdviceConnection[]): string[] {
  const names = connections
    .filter((connection) => connection.enabled && connection.kind === 'DIRECT_API')
    .map((connection) => connection.retailer_name);
  return [...new Set(names)].sort((a, b) => a.localeCompare(b));
}

/** The connections an advice for the scope reaches (null scope: nothing to load). */
export function useAdviceConnections(scope: AdviceScope | null) {
  const api = useApi();
  return useQuery({
    queryKey: inventoryKeys.connections(scope ?? { facilityId: '', brandId: '' }),
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
    queryKey: inventoryKeys.snapshots(scope, page, pageSize),
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
    queryKey: inventoryKeys.snapshot(snapshotId ?? ''),
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
    queryKey: inventoryKeys.deliveryDocument(deliveryId),
    queryFn: ({ signal }) => fetchDeliveryDocument(api, deliveryId, signal),
    staleTime: Infinity,
  });
}

/** After a write that changes deliveries: every list and detail of them loads again. */
export function invalidateDeliveryState(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: inventoryKeys.deliveryState });
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
