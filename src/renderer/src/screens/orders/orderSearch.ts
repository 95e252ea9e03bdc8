import { z } from 'zod';
import { ORDER_SORT_FIELDS, orderStatusSchema } from '../../../../shared/orders';
import type { OrderListRequest } from '../../api/orders';

/** Rows per page of the orders list. */
export const ORDER_PAGE_SIZE = 25;

// The router reads `?q=123` as the number 123; a search is text either way.
const searchText = z.preprocess(
  (value) => (typeof value === 'number' ? String(value) : value),
  z.string().trim().min(1).max(100).optional().catch(undefined),
);

/** The orders list's URL state; a value that does not fit is dropped rather than an error. */
export const orderListSearchSchema = z.object({
  /** Part of a PO number, picksheet code or external order id. */
  q: searchText,
  status: orderStatusSchema.optional().catch(undefined),
  facility: z.uuid().optional().catch(undefined),
  retailer: z.uuid().optional().catch(undefined),
  sort: z.enum(ORDER_SORT_FIELDS).optional().catch(undefined),
  dir: z.enum(['asc', 'desc']).optional().catch(undefined),
  /** 1 when absent. */
  page: z.number().int().min(2).optional().catch(undefined),
});
export type OrderListSearch = z.infer<typeof orderListSearchSchema>;
export type OrderSortField = (typeof ORDER_SORT_FIELDS)[number];

/** Newest first unless the URL says otherwise (the service's default too). */
export const DEFAULT_SORT = { field: 'created_at', direction: 'desc' } as const;

export function sortOf(search: OrderListSearch): {
  field: OrderSortField;
  direction: 'asc' | 'desc';
} {
  return {
    field: search.sort ?? DEFAULT_SORT.field,
    direction: search.dir ?? DEFAULT_SORT.direction,
  };
}

/** The service request the URL state asks for. */
export function listRequestOf(search: OrderListSearch): OrderListRequest {
  const sort = sortOf(search);
  return {
    search: search.q,
    status: search.status ? [search.status] : undefined,
    facility_id: search.facility,
    retailer_id: search.retailer,
    order_by: sort.field,
    order_direction: sort.direction,
    page: search.page ?? 1,
    page_size: ORDER_PAGE_SIZE,
  };
}

/** Whether any filter narrows the list (the empty state then says how to widen it). */
export function isFiltered(search: OrderListSearch): boolean {
  return !!(search.q ?? search.status ?? search.facility ?? search.retailer);
}

/**
 * The URL state after a click on a column header: the same column flips its direction, another
 * column starts with the direction that suits it (dates newest first, text A to Z); back to page 1.
 */
export function searchAfterSort(search: OrderListSearch, field: OrderSortField): OrderListSearch {
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
