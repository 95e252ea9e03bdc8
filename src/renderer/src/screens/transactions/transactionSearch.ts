import { z } from 'zod';
import {
  ACTION_TYPES,
  EXECUTION_STATUSES,
  TRANSACTION_LIMITS,
  TRANSACTION_SORT_FIELDS,
  isCalendarDay,
  type TransactionSortField,
} from '../../../../shared/transactions';
import type { TransactionListRequest } from '../../api/transactions';

/** Rows per page of the transaction log. */
export const TRANSACTION_PAGE_SIZE = 50;

// The router reads `?q=123` as the number 123; the text fields are text either way.
const text = (max: number, min = 1) =>
  z.preprocess(
    (value) => (typeof value === 'number' ? String(value) : value),
    z.string().trim().min(min).max(max).optional().catch(undefined),
  );
const day = z.string().refine(isCalendarDay).optional().catch(undefined);

/** The transaction log's URL state; a value that does not fit is dropped rather than an error. */
export const transactionSearchSchema = z.object({
  /** Part of a transaction, order or correlation id, an error message or a URL (3+ characters). */
  q: text(TRANSACTION_LIMITS.searchMax, TRANSACTION_LIMITS.searchMin),
  status: z.enum(EXECUTION_STATUSES).optional().catch(undefined),
  action: z.enum(ACTION_TYPES).optional().catch(undefined),
  facility: z.uuid().optional().catch(undefined),
  brand: z.uuid().optional().catch(undefined),
  retailer: z.uuid().optional().catch(undefined),
  error: z.enum(['true', 'false']).optional().catch(undefined),
  from: day,
  to: day,
  transaction: z.uuid().optional().catch(undefined),
  order: z.uuid().optional().catch(undefined),
  po: text(100),
  sort: z.enum(TRANSACTION_SORT_FIELDS).optional().catch(undefined),
  dir: z.enum(['asc', 'desc']).optional().catch(undefined),
  /** 1 when absent. */
  page: z.number().int().min(2).optional().catch(undefined),
  /** The transaction shown in the detail drawer. */
  open: z.uuid().optional().catch(undefined),
});
export type TransactionSearch = z.infer<typeof transactionSearchSchema>;

export const DEFAULT_SORT = { field: 'created_at', direction: 'desc' } as const;

export function sortOf(search: TransactionSearch): {
  field: TransactionSortField;
  direction: 'asc' | 'desc';
} {
  return {
    field: search.sort ?? DEFAULT_SORT.field,
    direction: search.dir ?? DEFAULT_SORT.direction,
  };
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
  const current = sortOf(search);
  const direction =
    current.field === field
      ? current.direction === 'asc'
        ? 'desc'
        : 'asc'
      : field === 'created_at' || field === 'updated_at'
        ? 'desc'
        : 'asc';
  const isDefault = field === DEFAULT_SORT.field && direction === DEFAULT_SORT.direction;
  return {
    ...search,
    sort: isDefault ? undefined : field,
    dir: isDefault ? undefined : direction,
    page: undefined,
  };
}
