import {
  transactionPageSchema,
  type TransactionListParams,
  type TransactionPage,
} from '../../../shared/transactions';
import type { ApiClient } from './client';

/** What a list request sends: query parameters as text; unset ones are left out. */
export type TransactionListRequest = TransactionListParams;

function transactionListParams(request: TransactionListRequest): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(request)) {
    if (value !== undefined && value !== '') params.set(key, value);
  }
  return params;
}

/** Endpoint 11: a page of the transaction log the user sees. */
export function listTransactions(
  api: ApiClient,
  request: TransactionListRequest,
  signal?: AbortSignal,
): Promise<TransactionPage> {
  return api.get(
    `/api/transactions?${transactionListParams(request)}`,
    transactionPageSchema,
    signal,
  );
}
