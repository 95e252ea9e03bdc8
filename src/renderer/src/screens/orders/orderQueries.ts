import {
  keepPreviousData,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { listBrands, listRetailers } from '../../api/lookups';
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
import { invalidateOrders, orderKeys } from '../../api/orderKeys';
import { lookupKeys } from '../../api/lookupQueries';
import type { CreateOrderBody, UpdateOrderBody } from '../../../../shared/orders';

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

/** For each facility id, whether `brandId` works there (from each facility's brand list). */
export function useBrandWorksAt(facilityIds: readonly string[], brandId: string) {
  const api = useApi();
  return useQueries({
    queries: facilityIds.map((facilityId) => ({
      queryKey: lookupKeys.brands(facilityId),
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
      queryKey: lookupKeys.retailers(facilityId, brandId),
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
