import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AnalyticsV2Row } from '../../../../shared/analytics';
import { fetchAnalyticsPage } from '../../api/analytics';
import { useApi } from '../../api/ApiContext';
import type { ApiClient } from '../../api/client';
import { listOrders } from '../../api/orders';
import { ANALYTICS_ROWS_PER_PAGE, orderFilterOf, orderMatchingCode } from './analyticsSearch';

export interface AnalyticsPageRequest {
  facilityId: string;
  page: number;
  /** The order filter as typed: a picksheet code or an order ID. */
  order?: string;
}

export interface AnalyticsPage {
  rows: AnalyticsV2Row[];
  /** Set when the filter named a picksheet code or PO number that no order of the facility has. */
  unknownCode: string | null;
}

/** The order ID of the facility's order with exactly this picksheet code or PO number (any capitals). */
async function orderIdOfCode(
  api: ApiClient,
  facilityId: string,
  code: string,
  signal: AbortSignal,
): Promise<string | null> {
  const found = await listOrders(
    api,
    { search: code, facility_id: facilityId, page: 1, page_size: 100 },
    signal,
  );
  return orderMatchingCode(found.orders, code);
}

/**
 * One page of the analytics table. The service filters by order ID only; clerks know the order
 * number (picksheet code) or the PO number, so a code is looked up among the facility's orders
 * first.
 */
async function loadAnalyticsPage(
  api: ApiClient,
  request: AnalyticsPageRequest,
  signal: AbortSignal,
): Promise<AnalyticsPage> {
  const filter = orderFilterOf(request.order);
  let orderId: string | undefined;
  if (filter?.kind === 'id') orderId = filter.orderId;
  if (filter?.kind === 'code') {
    const id = await orderIdOfCode(api, request.facilityId, filter.code, signal);
    if (id === null) return { rows: [], unknownCode: filter.code };
    orderId = id;
  }
  const rows = await fetchAnalyticsPage(
    api,
    {
      facilityId: request.facilityId,
      page: request.page,
      pageSize: ANALYTICS_ROWS_PER_PAGE,
      orderId,
    },
    signal,
  );
  return { rows, unknownCode: null };
}

export const analyticsKeys = {
  all: ['analytics'] as const,
  page: (request: AnalyticsPageRequest) => [...analyticsKeys.all, 'page', request] as const,
};

/** A facility's page of analytics rows (nothing is asked until a facility is chosen). */
export function useAnalyticsPage(request: AnalyticsPageRequest | null) {
  const api = useApi();
  return useQuery({
    queryKey: analyticsKeys.page(request ?? { facilityId: '', page: 1 }),
    queryFn: ({ signal }) => loadAnalyticsPage(api, request ?? { facilityId: '', page: 1 }, signal),
    enabled: request !== null,
    staleTime: 0,
    // Paging keeps the current rows on screen until the next ones are in.
    placeholderData: keepPreviousData,
  });
}
