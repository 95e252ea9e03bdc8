import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { listTransactions, type TransactionListRequest } from '../../api/transactions';

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
