import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BillingPricesBody } from '../../../../shared/billing';
import { useApi } from '../../api/ApiContext';
import {
  fetchBillingPrices,
  fetchInvoiceOrderDetails,
  fetchInvoices,
  saveBillingPrices,
} from '../../api/billing';
import { detailsQueryOf, invoiceQueryOf, type BillingFilters } from './billingSearch';

/** Everything about billing sits under one prefix, so a price change refreshes every view. */
export const billingKeys = {
  all: ['billing'] as const,
  invoice: (filters: BillingFilters) => [...billingKeys.all, 'invoice', filters] as const,
  details: (filters: BillingFilters, page: number) =>
    [...billingKeys.all, 'details', filters, page] as const,
  prices: (brandId: string) => [...billingKeys.all, 'prices', brandId] as const,
};

export function useInvoice(filters: BillingFilters, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: billingKeys.invoice(filters),
    queryFn: ({ signal }) => fetchInvoices(api, invoiceQueryOf(filters), signal),
    enabled,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export function useOrderDetailsPage(filters: BillingFilters, page: number, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: billingKeys.details(filters, page),
    queryFn: ({ signal }) => fetchInvoiceOrderDetails(api, detailsQueryOf(filters, page), signal),
    enabled,
    staleTime: 0,
    // Paging keeps the current rows on screen until the next ones are in.
    placeholderData: keepPreviousData,
  });
}

export function useBillingPrices(brandId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: billingKeys.prices(brandId ?? ''),
    queryFn: ({ signal }) => fetchBillingPrices(api, brandId ?? '', signal),
    enabled: !!brandId,
    staleTime: 0,
  });
}

export function useSaveBillingPrices() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ brandId, body }: { brandId: string; body: BillingPricesBody }) =>
      saveBillingPrices(api, brandId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
