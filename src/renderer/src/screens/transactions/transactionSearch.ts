import { z } from 'zod';
import {
  ACTION_TYPES,
  EXECUTION_STATUSES,
  TRANSACTION_LIMITS,
  TRANSACTION_SORT_FIELDS,
  type TransactionSortField,
} from '../../../../shared/transactions';
import type { TransactionListRequest } from '../../api/transactions';
import {
  calendarDay,
  optionalUuid,
  pageNumber,
  sortAfterClick,
  sortDirection,
  sortOrDefault,
  urlText,
} from '../../routing/urlSearch';

/** Rows per page of the transaction log. */
export const TRANSACTION_PAGE_SIZE = 50;

/** The transaction log's URL state; a value that does not fit is dropped rather than an error. */
export const transactionSearchSchema = z.object({
  /** Part of a transaction, order or correlation id, an error message or a URL (3+ characters). */
  q: urlText(TRANSACTION_LIMITS.searchMax, TRANSACTION_LIMITS.searchMin),
  status: z.enum(EXECUTION_STATUSES).optional().catch(undefined),
  action: z.enum(ACTION_TYPES).optional().catch(undefined),
  facility: optionalUuid,
  brand: optionalUuid,
  retailer: optionalUuid,
  error: z.enum(['true', 'false']).optional().catch(undefined),
  from: calendarDay,
  to: calendarDay,
  transaction: optionalUuid,
  order: optionalUuid,
  po: urlText(100),
  sort: z.enum(TRANSACTION_SORT_FIELDS).optional().catch(undefined),
  dir: sortDirection,
  /** 1 when absent. */
  page: pageNumber,
  /** The transaction shown in the detail drawer. */
  open: optionalUuid,
});
export type TransactionSearch = z.infer<typeof transactionSearchSchema>;

export const DEFAULT_SORT = { field: 'created_at', direction: 'desc' } as const;

export function sortOf(search: TransactionSearch): {
  field: TransactionSortField;
  direction: 'asc' | 'desc';
} {
  return sortOrDefault<TransactionSortField>(search, DEFAULT_SORT);
}

/** The service request the URL state asks for. */
export function listRequestOf(search: TransactionSearch): TransactionListRequest {
  const sort = sortOf(search);
  return {
    search: search.q,
    execution_status: search.status,
    action_type: search.action,
    facility_ids: search.facility,
    brand_ids: search.brand,
    retailer_ids: search.retailer,
    has_error: search.error,
    created_from: search.from,
    created_to: search.to,
    transaction_id: search.transaction,
    order_id: search.order,
    po_number: search.po,
    order_by: sort.field,
    order_direction: sort.direction,
    page: String(search.page ?? 1),
    page_size: String(TRANSACTION_PAGE_SIZE),
  };
}

const FILTER_KEYS = [
  'q',
  'status',
  'action',
  'facility',
  'brand',
  'retailer',
  'error',
  'from',
  'to',
  'transaction',
  'order',
  'po',
] as const satisfies readonly (keyof TransactionSearch)[];

/** Whether any filter narrows the log (the empty state then says how to widen it). */
export function isFiltered(search: TransactionSearch): boolean {
  return FILTER_KEYS.some((key) => search[key] !== undefined);
}

/** The URL state after a header click: the same column flips, another starts newest/A first. */
export function searchAfterSort(
  search: TransactionSearch,
  field: TransactionSortField,
): TransactionSearch {
  return { ...search, ...sortAfterClick(sortOf(search), field, DEFAULT_SORT), page: undefined };
}
