import type { AuthUser, ServiceContext } from '../core/context';
import { resolveTargets } from './targets';

export interface AdviceConnectionView {
  connection_id: string;
  retailer_id: string;
  retailer_name: string;
  kind: 'EDI_846' | 'DIRECT_API';
  enabled: boolean;
}

/**
 * The connections an advice for `brandId` at `facilityId` would reach, so the upload screen can
 * say before a preview which retailers need a status at 0. Same visibility (404) and admin (403)
 * rules as a preview or send, because it is resolved the same way.
 */
export async function listAdviceConnections(
  ctx: ServiceContext,
  user: AuthUser,
  scope: { brandId: string; facilityId: string },
): Promise<AdviceConnectionView[]> {
  const targets = await resolveTargets(ctx, user, { kind: 'facility', ...scope });
  return targets.connections.map((connection) => ({
    connection_id: connection.id,
    retailer_id: connection.retailer_id,
    retailer_name: connection.retailer_name,
    kind: connection.kind,
    enabled: connection.enabled === 1,
  }));
}
