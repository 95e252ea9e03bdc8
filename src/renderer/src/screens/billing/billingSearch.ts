import { z } from 'zod';
import {
  TRANSPORTATION_METHODS,
  type InvoiceDetailsQuery,
  type InvoiceQuery,
} from '../../../../shared/billing';
import { calendarDay, optionalUuid, pageNumber } from '../../routing/urlSearch';

/** Orders per page of the order details table. */
export const BILLING_DETAILS_PAGE_SIZE = 25;
/** Orders per request while exporting every page (the service's maximum). */
export const BILLING_EXPORT_PAGE_SIZE = 100;

/** The Billing screen's URL state; a value that does not fit is dropped rather than an error. */
export const billingSearchSchema = z.object({
  brand: optionalUuid,
  retailer: optionalUuid,
  method: z.enum(TRANSPORTATION_METHODS).optional().catch(undefined),
  asn_from: calendarDay,
  asn_to: calendarDay,
  packed_from: calendarDay,
  packed_to: calendarDay,
  /** The page of order details; 1 when absent. */
  page: pageNumber,
});
export type BillingSearch = z.infer<typeof billingSearchSchema>;

const BILLING_FILTER_KEYS = [
  'brand',
  'retailer',
  'method',
  'asn_from',
  'asn_to',
  'packed_from',
  'packed_to',
] as const satisfies readonly (keyof BillingSearch)[];
export type BillingFilters = Pick<BillingSearch, (typeof BILLING_FILTER_KEYS)[number]>;

/** Whether any filter narrows the bill (the empty state then says how to widen it). */
export function isFiltered(search: BillingSearch): boolean {
  return BILLING_FILTER_KEYS.some((key) => search[key] !== undefined);
}

/** Only the filters (no page): what the summary and the export depend on. */
export function filtersOf(search: BillingSearch): BillingFilters {
  const filters: BillingFilters = {};
  for (const key of BILLING_FILTER_KEYS) {
    if (search[key] !== undefined) Object.assign(filters, { [key]: search[key] });
  }
  return filters;
}

/** The query of endpoint 12 the filters ask for. */
export function invoiceQueryOf(filters: BillingFilters): InvoiceQuery {
  return {
    brand_id: filters.brand,
    retailer_id: filters.retailer,
    transportation_method: filters.method,
    asn_sent_from: filters.asn_from,
    asn_sent_to: filters.asn_to,
    packed_from: filters.packed_from,
    packed_to: filters.packed_to,
  };
}

/** The query of endpoint 13 for one page of order details under the filters. */
export function detailsQueryOf(
  filters: BillingFilters,
  page: number,
  pageSize: number = BILLING_DETAILS_PAGE_SIZE,
): InvoiceDetailsQuery {
  return { ...invoiceQueryOf(filters), page: String(page), page_size: String(pageSize) };
}

/** The URL state after one filter changes: back to the first page of details. */
export function searchWithFilter(search: BillingSearch, patch: BillingFilters): BillingSearch {
  return { ...search, ...patch, page: undefined };
}

/** Part of a file name that says which filters made the export (`freight_2026-11-01_2026-11-30`). */
export function exportNameOf(filters: BillingFilters): string {
  const parts = [
    filters.method?.toLowerCase(),
    filters.packed_from || filters.packed_to
      ? `packed_${filters.packed_from ?? 'start'}_${filters.packed_to ?? 'now'}`
      : undefined,
    filters.asn_from || filters.asn_to
      ? `asn_${filters.asn_from ?? 'start'}_${filters.asn_to ?? 'now'}`
      : undefined,
  ].filter((part): part is string => !!part);
  return parts.length > 0 ? parts.join('-') : 'all';
}
