import {
  keepPreviousData,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import type { ApiClient } from '../../api/client';
import { listBrands, listFacilities, listRetailers } from '../../api/lookups';
import {
  changeOrderFacility,
  createOrder,
  fetchOrder,
  listBolVersions,
  listOrders,
  updateOrder,
  type ChangeFacilityRequest,
  type OrderListRequest,
} from '../../api/orders';
import { queryKeys } from '../../api/queries';
import type { Retailer } from '../../../../shared/lookups';
import type { CreateOrderBody, UpdateOrderBody } from '../../../../shared/orders';

/** Everything about orders sits under one prefix, so a write refreshes every view of them. */
export const orderKeys = {
  all: ['orders'] as const,
  list: (request: OrderListRequest) => [...orderKeys.all, 'list', request] as const,
  one: (orderId: string) => [...orderKeys.all, 'one', orderId] as const,
  bol: (orderId: string) => [...orderKeys.all, 'bol', orderId] as const,
};

export function invalidateOrders(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: orderKeys.all });
}

export function useOrderList(request: OrderListRequest) {
  const api = useApi();
  return useQuery({
    queryKey: orderKeys.list(request),
    queryFn: ({ signal }) => listOrders(api, request, signal),
    staleTime: 0,
    // Paging and filtering keep the current rows on screen until the next ones are in.
    placeholderData: keepPreviousData,
  });
}

export function useOrder(orderId: string) {
  const api = useApi();
  return useQuery({
    queryKey: orderKeys.one(orderId),
    queryFn: ({ signal }) => fetchOrder(api, orderId, signal),
    staleTime: 0,
  });
}

export function useBolVersions(orderId: string) {
  const api = useApi();
  return useQuery({
    queryKey: orderKeys.bol(orderId),
    queryFn: ({ signal }) => listBolVersions(api, orderId, signal),
    staleTime: 0,
  });
}

/** Every retailer the user can reach through any facility and brand, each once, by name. */
async function loadAllRetailers(api: ApiClient, signal: AbortSignal): Promise<Retailer[]> {
  const facilities = await listFacilities(api, signal);
  const pairs = await Promise.all(
    facilities.map(async (facility) => {
      const brands = await listBrands(api, facility.id, signal);
      return brands.map((brand) => ({ facilityId: facility.id, brandId: brand.brand_id }));
    }),
  );
  const lists = await Promise.all(
    pairs.flat().map((pair) => listRetailers(api, pair.facilityId, pair.brandId, signal)),
  );
  const byId = new Map(lists.flat().map((retailer) => [retailer.retailer_id, retailer]));
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The retailer filter's choices. */
export function useAllRetailers() {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.lookups, 'all-retailers'] as const,
    queryFn: ({ signal }) => loadAllRetailers(api, signal),
  });
}

/** For each facility id, whether `brandId` works there (from each facility's brand list). */
export function useBrandWorksAt(facilityIds: readonly string[], brandId: string) {
  const api = useApi();
  return useQueries({
    queries: facilityIds.map((facilityId) => ({
      queryKey: queryKeys.brands(facilityId),
      queryFn: ({ signal }: { signal: AbortSignal }) => listBrands(api, facilityId, signal),
    })),
    combine: (results) => ({
      loading: results.some((result) => result.isPending),
      failed: results.find((result) => result.isError)?.error ?? null,
      facilityIds: facilityIds.filter((_, index) =>
        (results[index]?.data ?? []).some((brand) => brand.brand_id === brandId),
      ),
    }),
  });
}

/**
 * Of the facilities given, those where the order's retailer is connected to its brand (endpoint
 * 18 lists it): the service refuses a move anywhere else.
 */
export function useRetailerConnectedAt(
  facilityIds: readonly string[],
  brandId: string,
  retailerId: string,
) {
  const api = useApi();
  return useQueries({
    queries: facilityIds.map((facilityId) => ({
      queryKey: queryKeys.retailers(facilityId, brandId),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        listRetailers(api, facilityId, brandId, signal),
    })),
    combine: (results) => ({
      loading: results.some((result) => result.isPending),
      facilityIds: facilityIds.filter((_, index) =>
        (results[index]?.data ?? []).some((retailer) => retailer.retailer_id === retailerId),
      ),
    }),
  });
}

export function useCreateOrder() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateOrderBody) => createOrder(api, body),
    onSuccess: () => invalidateOrders(queryClient),
  });
}

export function useUpdateOrder() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOrderBody) => updateOrder(api, body),
    onSuccess: () => invalidateOrders(queryClient),
  });
}

export function useChangeFacility() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeFacilityRequest) => changeOrderFacility(api, body),
    onSuccess: () => invalidateOrders(queryClient),
  });
}
