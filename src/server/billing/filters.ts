import type { InvoiceFilter } from './queries';
import {
  INVOICE_DETAILS_PAGE_SIZE,
  TRANSPORTATION_METHODS,
  type InvoiceDetailsQuery,
  type InvoiceQuery,
} from '../../shared/billing';
import { isCalendarDate } from '../../shared/inventory';
import { dayAfter } from '../../shared/calendar-day';
import { UUID_TEXT } from '../../shared/ids';
import { invalidRequest } from '../core/errors';

const given = (value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

function uuidParam(name: string, value: string | undefined) {
  const text = given(value);
  if (text === undefined) return undefined;
  if (!UUID_TEXT.test(text))
    throw invalidRequest(`Invalid query parameter: ${name} must be a UUID`);
  return text.toLowerCase();
}

function dateParam(name: string, value: string | undefined) {
  const text = given(value);
  if (text === undefined) return undefined;
  if (!isCalendarDate(text)) {
    throw invalidRequest(`Invalid date format: ${name} must be a date YYYY-MM-DD, got '${text}'`);
  }
  return text;
}

/** The filters of invoices (12), checked, with the interface's messages for bad values. */
export function invoiceFilterOf(
  query: InvoiceQuery,
  scope: { facilityIds: readonly string[]; userBrandId: string | null },
): InvoiceFilter {
  const method = given(query.transportation_method);
  if (
    method !== undefined &&
    !(TRANSPORTATION_METHODS as readonly string[]).includes(method.toUpperCase())
  ) {
    throw invalidRequest(
      `Invalid transportation_method: '${query.transportation_method}'. Allowed values: ${TRANSPORTATION_METHODS.join(', ')}`,
    );
  }
  const asnSentTo = dateParam('asn_sent_to', query.asn_sent_to);
  const packedTo = dateParam('packed_to', query.packed_to);
  return {
    ...scope,
    brandId: uuidParam('brand_id', query.brand_id),
    retailerId: uuidParam('retailer_id', query.retailer_id),
    transportationMethod: method?.toUpperCase(),
    asnSentFrom: dateParam('asn_sent_from', query.asn_sent_from),
    asnSentBefore: asnSentTo && dayAfter(asnSentTo),
    packedFrom: dateParam('packed_from', query.packed_from),
    packedBefore: packedTo && dayAfter(packedTo),
  };
}

function pageParam(name: string, value: string | undefined, fallback: number) {
  const text = given(value);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw invalidRequest(`Invalid query parameter: ${name} must be a whole number from 1`);
  }
  // A thousand digits would reach SQL as Infinity (issue 18 item 9).
  if (!Number.isSafeInteger(Number(text))) {
    throw invalidRequest(`Invalid query parameter: ${name} is too large`);
  }
  return Number(text);
}

/** The filters and page of invoice order details (13); page_size above 100 is capped at 100. */
export function invoiceDetailsFilterOf(
  query: InvoiceDetailsQuery,
  scope: { facilityIds: readonly string[]; userBrandId: string | null },
) {
  const filter: InvoiceFilter = {
    ...invoiceFilterOf(query, scope),
    orderId: uuidParam('order_id', query.order_id),
    picksheetCode: given(query.picksheet_code),
  };
  const page = pageParam('page', query.page, 1);
  const pageSize = Math.min(
    pageParam('page_size', query.page_size, INVOICE_DETAILS_PAGE_SIZE.default),
    INVOICE_DETAILS_PAGE_SIZE.max,
  );
  return { filter, page, pageSize };
}
