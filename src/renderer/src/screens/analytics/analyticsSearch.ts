import { z } from 'zod';
import { ANALYTICS_PAGE_SIZE } from '../../../../shared/analytics';
import { optionalUuid, pageNumber, urlText } from '../../routing/urlSearch';
import { UUID_TEXT } from '../../../../shared/ids';

/** The Analytics screen's URL state; a value that does not fit is dropped rather than an error. */
export const analyticsSearchSchema = z.object({
  facility: optionalUuid,
  /** One order: its picksheet code (order number) or its order ID. */
  order: urlText(100),
  /** 1 when absent. */
  page: pageNumber,
});
export type AnalyticsSearch = z.infer<typeof analyticsSearchSchema>;

/** Rows per page: the service's maximum. */
export const ANALYTICS_ROWS_PER_PAGE = ANALYTICS_PAGE_SIZE;

/** How the order filter names its order: an order ID is used as is, anything else is a code. */
export type OrderFilter = { kind: 'id'; orderId: string } | { kind: 'code'; code: string };

export function orderFilterOf(text: string | undefined): OrderFilter | null {
  const value = text?.trim() ?? '';
  if (value === '') return null;
  return UUID_TEXT.test(value)
    ? { kind: 'id', orderId: value.toLowerCase() }
    : { kind: 'code', code: value };
}

/**
 * The order a typed code names among the orders the search found: the one whose picksheet code
 * (order number) is exactly the code, else one whose PO number is (any capitals); null if none.
 */
export function orderMatchingCode(
  orders: readonly { id: string; picksheet_code: string; po_number: string | null }[],
  code: string,
): string | null {
  const wanted = code.trim().toLowerCase();
  const byCode = orders.find((order) => order.picksheet_code.toLowerCase() === wanted);
  const byPo = orders.find((order) => order.po_number?.toLowerCase() === wanted);
  return (byCode ?? byPo)?.id ?? null;
}

/** The URL state after a new facility: the old order filter and page belong to the old one. */
export function searchForFacility(facility: string | undefined): AnalyticsSearch {
  return { facility };
}

/** The URL state after the order filter changes (back to the first page). */
export function searchForOrder(search: AnalyticsSearch, order: string): AnalyticsSearch {
  return { facility: search.facility, order: order.trim() || undefined };
}

/** The URL state of another page (page 1 is left out of the address). */
export function searchForPage(search: AnalyticsSearch, page: number): AnalyticsSearch {
  return { ...search, page: page > 1 ? page : undefined };
}

/**
 * The service gives no total, so a full page may have a next one; a short page is the last.
 * (A next page that turns out empty says so and offers the previous one.)
 */
export function hasNextPage(rowsOnPage: number): boolean {
  return rowsOnPage >= ANALYTICS_ROWS_PER_PAGE;
}
