import { documentFor, newSnapshot } from './transmission/documents';
import type { AdviceLine } from './transmission/types';
import { lastDeliveredSnapshot, peekControlNumbers } from './queries';
import type { AuthUser, ServiceContext } from '../core/context';
import { compareSnapshots } from './changes';
import { resolveTargets, type AdviceScope } from './targets';
import { validateAdvice } from './validate';

/**
 * Dry run: what each enabled connection would receive, and how that differs from the last
 * snapshot of the same scope (this facility, or the brand level) it accepted. Validates exactly like a send; makes no network call and stores nothing.
 */
export async function previewInventoryAdvice(
  ctx: ServiceContext,
  user: AuthUser,
  scope: AdviceScope,
  body: unknown,
) {
  const targets = await resolveTargets(ctx, user, scope);
  const items = validateAdvice(ctx, targets, body);
  const snapshot = newSnapshot(targets, items, ctx.clock.now());
  const connections = await Promise.all(
    targets.connections
      .filter((connection) => connection.enabled)
      .map(async (connection) => {
        const numbers =
          connection.kind === 'EDI_846' ? await peekControlNumbers(ctx.db, connection.id) : null;
        let document: { content_type: string; file_name: string; body: string } | null = null;
        let error: string | null = null;
        try {
          const built = documentFor(connection, snapshot, 'preview', numbers);
          document = {
            content_type: built.contentType,
            file_name: built.fileName,
            body: built.body,
          };
        } catch (failure) {
          error = `Cannot build the document: ${(failure as Error).message}`;
        }
        // Only the same scope: another facility's stock is neither a baseline nor visible here.
        const baseline = await lastDeliveredSnapshot(
          ctx.db,
          connection.id,
          targets.facility?.id ?? null,
        );
        const baselineItems = baseline ? (JSON.parse(baseline.items_json) as AdviceLine[]) : [];
        return {
          connection_id: connection.id,
          kind: connection.kind,
          organization_id: connection.organization_id,
          organization_name: connection.organization_name,
          retailer_id: connection.retailer_id,
          retailer_name: connection.retailer_name,
          document,
          error,
          baseline: baseline ? { snapshot_id: baseline.id, created_at: baseline.created_at } : null,
          changes: compareSnapshots(baselineItems, items),
        };
      }),
  );
  return {
    message: 'Inventory advice preview generated',
    data: { item_count: items.length, connections },
  };
}
