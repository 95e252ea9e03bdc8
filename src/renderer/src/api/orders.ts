import type { z } from 'zod';
import {
  bolVersionListSchema,
  changeFacilityBodySchema,
  orderDetailsSchema,
  orderIdDataSchema,
  orderListPageSchema,
  type BolBody,
  type BolVersion,
  type CreateOrderBody,
  type OrderDetails,
  type OrderListPage,
  type OrderListQuery,
  type UpdateOrderBody,
} from '../../../shared/orders';
import type { ApiClient } from './client';
import type { FileTransfer } from './transfer';

/** What a list request sends; unset filters are left out. */
export type OrderListRequest = Partial<OrderListQuery>;

/** The query string of `GET /api/v1/orders` (statuses comma-separated, empty filters dropped). */
export function orderListParams(request: OrderListRequest): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(request)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(key, value.join(','));
    } else {
      params.set(key, String(value));
    }
  }
  return params;
}

/** The order list (beyond the interface), within the user's scope. */
export function listOrders(
  api: ApiClient,
  request: OrderListRequest,
  signal?: AbortSignal,
): Promise<OrderListPage> {
  return api.get(`/api/v1/orders?${orderListParams(request)}`, orderListPageSchema, signal);
}

/** Endpoint 8. */
export function fetchOrder(
  api: ApiClient,
  orderId: string,
  signal?: AbortSignal,
): Promise<OrderDetails> {
  return api.get(`/api/v1/orders/${encodeURIComponent(orderId)}`, orderDetailsSchema, signal);
}

/** Endpoint 4; resolves with the new order's id. */
export async function createOrder(api: ApiClient, body: CreateOrderBody): Promise<string> {
  const answer = await api.request('/api/v1/orders/create', orderIdDataSchema, {
    method: 'POST',
    body,
  });
  return answer.data.order_id;
}

/** Endpoint 5. */
export async function updateOrder(api: ApiClient, body: UpdateOrderBody): Promise<string> {
  const answer = await api.request('/api/v1/orders', orderIdDataSchema, { method: 'PUT', body });
  return answer.data.order_id;
}

/** What endpoint 6 takes (fields left out stay as they are). */
export type ChangeFacilityRequest = z.input<typeof changeFacilityBodySchema>;

/** Endpoint 6; `body.facility_id` is the destination. */
export async function changeOrderFacility(
  api: ApiClient,
  body: ChangeFacilityRequest,
): Promise<string> {
  const answer = await api.request('/api/v1/orders/change-facility', orderIdDataSchema, {
    method: 'PUT',
    body,
  });
  return answer.data.order_id;
}

const bolPath = (orderId: string) => `/api/v1/orders/${encodeURIComponent(orderId)}/bol`;

/** The order's bills of lading, newest first. */
export function listBolVersions(
  api: ApiClient,
  orderId: string,
  signal?: AbortSignal,
): Promise<BolVersion[]> {
  return api.get(bolPath(orderId), bolVersionListSchema, signal);
}

/** The stored PDF of one version. */
export function fetchBolFile(
  transfer: FileTransfer,
  orderId: string,
  versionId: string,
  signal?: AbortSignal,
): Promise<Blob> {
  return transfer.getBlob(`${bolPath(orderId)}/${encodeURIComponent(versionId)}/file`, signal);
}

/** Endpoint 7, with upload progress (0 to 1). */
export function uploadBol(
  transfer: FileTransfer,
  orderId: string,
  body: BolBody,
  onProgress: (sent: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  return transfer.postJsonWithProgress(
    `/api/documents/bol/${encodeURIComponent(orderId)}`,
    body,
    onProgress,
    signal,
  );
}
