import {
  billingPricesSchema,
  invoiceDetailsPageSchema,
  invoiceSchema,
  type BillingPrices,
  type BillingPricesBody,
  type Invoice,
  type InvoiceDetailsPage,
  type InvoiceDetailsQuery,
  type InvoiceQuery,
} from '../../../shared/billing';
import type { ApiClient } from './client';

/** A query string of the set values only. */
export function billingParams(query: InvoiceQuery | InvoiceDetailsQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (typeof value === 'string' && value !== '') params.set(key, value);
  }
  return params;
}

/** Endpoint 12: the billing summary per brand. */
export function fetchInvoices(
  api: ApiClient,
  query: InvoiceQuery,
  signal?: AbortSignal,
): Promise<Invoice> {
  return api.get(`/api/v1/fintech/invoices?${billingParams(query)}`, invoiceSchema, signal);
}

/** Endpoint 13: one page of per-order billing details. */
export function fetchInvoiceOrderDetails(
  api: ApiClient,
  query: InvoiceDetailsQuery,
  signal?: AbortSignal,
): Promise<InvoiceDetailsPage> {
  return api.get(
    `/api/v1/fintech/invoice-order-details?${billingParams(query)}`,
    invoiceDetailsPageSchema,
    signal,
  );
}

const pricesPath = (brandId: string) => `/api/v1/billing/prices/${encodeURIComponent(brandId)}`;

export function fetchBillingPrices(
  api: ApiClient,
  brandId: string,
  signal?: AbortSignal,
): Promise<BillingPrices> {
  return api.get(pricesPath(brandId), billingPricesSchema, signal);
}

/** Replaces the brand's prices (admin only: 403 otherwise). */
export async function saveBillingPrices(
  api: ApiClient,
  brandId: string,
  body: BillingPricesBody,
): Promise<BillingPrices> {
  const answer = await api.request(pricesPath(brandId), billingPricesSchema, {
    method: 'PUT',
    body,
  });
  return answer.data;
}
