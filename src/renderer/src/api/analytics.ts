import { z } from 'zod';
import { analyticsV2RowSchema, type AnalyticsV2Row } from '../../../shared/analytics';
import type { ApiClient } from './client';

const rowsSchema = z.array(analyticsV2RowSchema);

/** What one analytics request asks for (the service's page size is 10 at most). */
export interface AnalyticsRequest {
  facilityId: string;
  page: number;
  pageSize: number;
  orderId?: string;
}

export function analyticsParams(request: AnalyticsRequest): URLSearchParams {
  const params = new URLSearchParams({
    page: String(request.page),
    page_size: String(request.pageSize),
  });
  if (request.orderId) params.set('order_id', request.orderId);
  return params;
}

/** Endpoint 9: one page of a facility's orders with their counts, newest first. */
export function fetchAnalyticsPage(
  api: ApiClient,
  request: AnalyticsRequest,
  signal?: AbortSignal,
): Promise<AnalyticsV2Row[]> {
  return api.get(
    `/api/v2/orders/analytics/table/${encodeURIComponent(request.facilityId)}?${analyticsParams(request)}`,
    rowsSchema,
    signal,
  );
}
