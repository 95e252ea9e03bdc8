import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import type { ApiClient } from '../../api/client';
import { listBrands, listFacilities } from '../../api/lookups';
import { queryKeys } from '../../api/queries';
import { listTransactions, type TransactionListRequest } from '../../api/transactions';
import type { Brand } from '../../../../shared/lookups';

export const transactionKeys = {
  all: ['transactions'] as const,
  list: (request: TransactionListRequest) => [...transactionKeys.all, 'list', request] as const,
};

export function useTransactionList(request: TransactionListRequest, enabled = true) {
  const api = useApi();
  return useQuery({
    enabled,
    queryKey: transactionKeys.list(request),
    queryFn: ({ signal }) => listTransactions(api, request, signal),
    staleTime: 0,
    // Paging and filtering keep the current rows on screen until the next ones are in.
    placeholderData: keepPreviousData,
  });
}

/** Every brand working at a facility the user sees, by name. */
async function loadAllBrands(api: ApiClient, signal: AbortSignal): Promise<Brand[]> {
  const facilities = await listFacilities(api, signal);
  const lists = await Promise.all(
    facilities.map((facility) => listBrands(api, facility.id, signal)),
  );
  const byId = new Map(lists.flat().map((brand) => [brand.brand_id, brand]));
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The brand filter's choices. */
export function useAllBrands() {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.lookups, 'all-brands'] as const,
    queryFn: ({ signal }) => loadAllBrands(api, signal),
  });
}
