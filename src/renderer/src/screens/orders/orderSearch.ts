import { z } from 'zod';
import { DUE_FILTERS, ORDER_SORT_FIELDS, orderStatusSchema } from '../../../../shared/orders';
import type { OrderListRequest } from '../../api/orders';
import { dateRangeProblem } from '../../components/dateRange';
import {
  calendarDay,
  optionalUuid,
  pageNumber,
  sortAfterClick,
  sortDirection,
  sortOrDefault,
  urlText,
} from '../../routing/urlSearch';

/** Rows per page of the orders list. */
export const ORDER_PAGE_SIZE = 25;

/** The orders list's URL state; a value that does not fit is dropped rather than an error. */
export const orderListSearchSchema = z.object({
  /** Part of a PO number, picksheet code or external order id. */
  q: urlText(100),
  status: orderStatusSchema.optional().catch(undefined),
  facility: optionalUuid,
  retailer: optionalUuid,
  /** Late, due today, or both (orders not shipped or cancelled). */
  due: z.enum(DUE_FILTERS).optional().catch(undefined),
  /** Inclusive bounds on the ship-by day. */
  shipFrom: calendarDay,
  shipTo: calendarDay,
  sort: z.enum(ORDER_SORT_FIELDS).optional().catch(undefined),
  dir: sortDirection,
  /** 1 when absent. */
  page: pageNumber,
});
export type OrderListSearch = z.infer<typeof orderListSearchSchema>;
export type OrderSortField = (typeof ORDER_SORT_FIELDS)[number];

/** Newest first unless the URL says otherwise (the service's default too). */
export const DEFAULT_SORT = { field: 'created_at', direction: 'desc' } as const;

export function sortOf(search: OrderListSearch): {
  field: OrderSortField;
  direction: 'asc' | 'desc';
} {
  return sortOrDefault<OrderSortField>(search, DEFAULT_SORT);
}

/** Whether the ship-by range's "from" is after its "to" (the list then ignores the range). */
export function shipRangeBackwards(search: OrderListSearch): boolean {
  return dateRangeProblem(search.shipFrom, search.shipTo) !== null;
}

/** The service request the URL state asks for. */
export function listRequestOf(search: OrderListSearch): OrderListRequest {
  const sort = sortOf(search);
  const range = shipRangeBackwards(search) ? {} : { from: search.shipFrom, to: search.shipTo };
  return {
    search: search.q,
    status: search.status ? [search.status] : undefined,
    facility_id: search.facility,
    retailer_id: search.retailer,
    due: search.due,
    ship_by_from: range.from,
    ship_by_to: range.to,
    order_by: sort.field,
    order_direction: sort.direction,
    page: search.page ?? 1,
    page_size: ORDER_PAGE_SIZE,
  };
}

/** Whether any filter narrows the list (the empty state then says how to widen it). */
export function isFiltered(search: OrderListSearch): boolean {
  return !!(
    search.q ??
    search.status ??
    search.facility ??
    search.retailer ??
    search.due ??
    search.shipFrom ??
    search.shipTo
  );
}

/**
 * The URL state after a click on a column header: the same column flips its direction, another
 * column starts with the direction that suits it (dates newest first, text A to Z); back to page 1.
 */
export function searchAfterSort(search: OrderListSearch, field: OrderSortField): OrderListSearch {
  return { ...search, ...sortAfterClick(sortOf(search), field, DEFAULT_SORT), page: undefined };
}
