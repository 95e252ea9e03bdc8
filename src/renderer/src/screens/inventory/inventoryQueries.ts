import { snapshotDetailSchema, snapshotPageSchema } from '../../../../shared/inventory';
import type { ApiClient } from '../../api/client';
import type { AdviceConnection, AdviceScope, SnapshotDetail } from '../../api/inventory';

/** The retailers whose enabled direct feed needs a status at quantity 0, sorted by name. */
export function statusRetailersOf(connections: readonly AdviceConnection[]): string[] {
  const names = connections
    .filter((connection) => connection.enabled && connection.kind === 'DIRECT_API')
    .map((connection) => connection.retailer_name);
  return [...new Set(names)].sort((a, b) => a.localeCompare(b));
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
