import { z } from 'zod';
import {
  adviceConnectionListSchema,
  adviceConnectionSchema,
  advicePreviewSchema,
  adviceResponseDataSchema,
  previewConnectionSchema,
  retryResultSchema,
  snapshotDeliverySchema,
  snapshotDetailSchema,
  snapshotPageSchema,
  snapshotSummarySchema,
} from '../../../shared/inventory';
import { isApiError } from './ApiError';
import type { ApiClient } from './client';
import type { TextDocument } from './http';

/** Where an advice goes: one brand at one facility (endpoint 2). */
export interface AdviceScope {
  brandId: string;
  facilityId: string;
}

const scopePath = ({ brandId, facilityId }: AdviceScope) =>
  `/api/v1/inventory/brand/${encodeURIComponent(brandId)}/facility/${encodeURIComponent(facilityId)}`;

export type PreviewConnection = z.infer<typeof previewConnectionSchema>;
export type AdvicePreview = z.infer<typeof advicePreviewSchema>;

export type AdviceData = z.infer<typeof adviceResponseDataSchema>;
export type AdviceResult = AdviceData['results'][number];

/** A send that reached the connections: 200 all sent, 207 some, 502 none. */
export interface AdviceOutcome {
  status: 200 | 207 | 502;
  message: string;
  data: AdviceData;
}

/** Dry run of a send: the documents and what changes for each connection. */
export async function previewAdvice(
  api: ApiClient,
  scope: AdviceScope,
  items: unknown[],
  signal?: AbortSignal,
): Promise<AdvicePreview> {
  const envelope = await api.request(`${scopePath(scope)}/preview`, advicePreviewSchema, {
    method: 'POST',
    body: { items },
    signal,
  });
  return envelope.data;
}

/**
 * Endpoint 2. Every connection failing (502 DELIVERY_FAILED) still carries the per-connection
 * results, so it is an outcome here, not an error; a 400, 403 or 404 throws `ApiError`.
 */
export async function sendAdvice(
  api: ApiClient,
  scope: AdviceScope,
  items: unknown[],
  signal?: AbortSignal,
): Promise<AdviceOutcome> {
  try {
    const envelope = await api.request(scopePath(scope), adviceResponseDataSchema, {
      method: 'POST',
      body: { items },
      signal,
    });
    const partial = envelope.data.summary.failed > 0;
    return { status: partial ? 207 : 200, message: envelope.message, data: envelope.data };
  } catch (error) {
    if (isApiError(error) && error.status === 502) {
      const body = error.body as { data?: unknown } | null;
      const data = adviceResponseDataSchema.safeParse(body?.data);
      if (data.success) return { status: 502, message: error.message, data: data.data };
    }
    throw error;
  }
}

/** The exact document stored for (and sent to) one connection. */
export function fetchDeliveryDocument(
  api: ApiClient,
  deliveryId: string,
  signal?: AbortSignal,
): Promise<TextDocument> {
  return api.getText(
    `/api/v1/inventory/deliveries/${encodeURIComponent(deliveryId)}/document`,
    signal,
  );
}

export type SnapshotDelivery = z.infer<typeof snapshotDeliverySchema>;
export type SnapshotSummary = z.infer<typeof snapshotSummarySchema>;
export type SnapshotPage = z.infer<typeof snapshotPageSchema>;
export type SnapshotDetail = z.infer<typeof snapshotDetailSchema>;
export type AdviceConnection = z.infer<typeof adviceConnectionSchema>;

/** The connections an advice for the scope reaches, enabled or not (GET /api/v1/inventory/connections). */
export function fetchConnections(
  api: ApiClient,
  scope: AdviceScope,
  signal?: AbortSignal,
): Promise<AdviceConnection[]> {
  const query = new URLSearchParams({ brand_id: scope.brandId, facility_id: scope.facilityId });
  return api.get(`/api/v1/inventory/connections?${query}`, adviceConnectionListSchema, signal);
}

/** Past snapshots of one brand at one facility, newest first. */
export function listSnapshots(
  api: ApiClient,
  scope: AdviceScope,
  page: { page: number; pageSize: number },
  signal?: AbortSignal,
): Promise<SnapshotPage> {
  const query = new URLSearchParams({
    brand_id: scope.brandId,
    facility_id: scope.facilityId,
    page: String(page.page),
    page_size: String(page.pageSize),
  });
  return api.get(`/api/v1/inventory/snapshots?${query}`, snapshotPageSchema, signal);
}

/** One snapshot with its rows and the current state of each delivery. */
export function fetchSnapshot(
  api: ApiClient,
  snapshotId: string,
  signal?: AbortSignal,
): Promise<SnapshotDetail> {
  return api.get(
    `/api/v1/inventory/snapshots/${encodeURIComponent(snapshotId)}`,
    snapshotDetailSchema,
    signal,
  );
}

export type RetryResult = z.infer<typeof retryResultSchema> & { message: string };

/** Sends a pending or failed delivery again, with the very same stored document. */
export async function retryDelivery(api: ApiClient, deliveryId: string): Promise<RetryResult> {
  const envelope = await api.request(
    `/api/v1/inventory/deliveries/${encodeURIComponent(deliveryId)}/retry`,
    retryResultSchema,
    { method: 'POST', body: {} },
  );
  return { ...envelope.data, message: envelope.message };
}

/**
 * The newest snapshot of this scope that at least one connection accepted, with its rows: what
 * retailers were last told. Null when nothing was delivered yet.
 */
export async function fetchLastDelivered(
  api: ApiClient,
  scope: AdviceScope,
  signal?: AbortSignal,
): Promise<SnapshotDetail | null> {
  const query = new URLSearchParams({
    brand_id: scope.brandId,
    facility_id: scope.facilityId,
    page: '1',
    page_size: '20',
  });
  const page = await api.get(`/api/v1/inventory/snapshots?${query}`, snapshotPageSchema, signal);
  const delivered = page.items.find((snapshot) => snapshot.summary.succeeded > 0);
  if (!delivered) return null;
  return api.get(
    `/api/v1/inventory/snapshots/${encodeURIComponent(delivered.snapshot_id)}`,
    snapshotDetailSchema,
    signal,
  );
}
