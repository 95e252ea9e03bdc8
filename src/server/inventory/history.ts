import { transportOf } from './transmission/documents';
import { leaseDelivery, releaseDeliveryLease } from './transmission/delivery-lease';
import {
  claimDelivery,
  releaseDelivery,
  resendJob,
  runDeliveries,
  type DeliveryJob,
} from './transmission/engine';
import {
  countPendingDeliveries,
  findDeliveryToSend,
  findVisibleDelivery,
  findVisibleSnapshot,
  listSnapshots,
  listVisibleDeliveriesOf,
  newerSnapshotDelivered,
} from './queries';
import { hasAdminGrant, hasAdminGrantInOrganization } from '../access';
import type { AuthUser, ServiceContext } from '../core/context';
import { describeSender, ownSenderIds } from '../sync/role';
import { conflict, forbidden, invalidRequest, notFound } from '../core/errors';

type DeliveryRow = Awaited<ReturnType<typeof listVisibleDeliveriesOf>>[number];

function deliveryView(row: DeliveryRow) {
  return {
    delivery_id: row.id,
    connection_id: row.connection_id,
    organization_id: row.organization_id,
    retailer_id: row.retailer_id,
    retailer_name: row.retailer_name,
    kind: row.kind,
    status: row.status,
    error: row.error,
    attempts: row.attempts,
    next_attempt_at: row.next_attempt_at,
    given_up: row.given_up === 1,
    file_name: row.file_name,
    content_type: row.content_type,
    interchange_control_number: row.interchange_control_number,
    updated_at: row.updated_at,
  };
}

function summaryOf(deliveries: DeliveryRow[]) {
  const succeeded = deliveries.filter((d) => d.status === 'SUCCESS').length;
  const pending = deliveries.filter((d) => d.status === 'PENDING').length;
  return {
    total: deliveries.length,
    succeeded,
    failed: deliveries.length - succeeded - pending,
    pending,
  };
}

interface SnapshotRow {
  id: string;
  brand_id: string;
  facility_id: string | null;
  item_count: number;
  created_at: string;
}

function snapshotView(row: SnapshotRow, deliveries: DeliveryRow[]) {
  return {
    snapshot_id: row.id,
    brand_id: row.brand_id,
    facility_id: row.facility_id,
    item_count: row.item_count,
    created_at: row.created_at,
    summary: summaryOf(deliveries),
    deliveries: deliveries.map(deliveryView),
  };
}

/** Past snapshots the user can see, newest first, each with its per-connection results. */
export async function snapshotHistory(
  ctx: ServiceContext,
  user: AuthUser,
  filter: { brandId?: string; facilityId?: string; page: number; pageSize: number },
) {
  const { total, rows } = await listSnapshots(ctx.db, user, filter);
  const deliveries = await listVisibleDeliveriesOf(
    ctx.db,
    user,
    rows.map((r) => r.id),
  );
  const items = rows.map((row) =>
    snapshotView(
      row,
      deliveries.filter((d) => d.snapshot_id === row.id),
    ),
  );
  return { items, total_count: total, page: filter.page, page_size: filter.pageSize };
}

export async function snapshotDetail(ctx: ServiceContext, user: AuthUser, snapshotId: string) {
  const row = await findVisibleSnapshot(ctx.db, user, snapshotId);
  if (!row) throw notFound('Snapshot not found');
  const deliveries = await listVisibleDeliveriesOf(ctx.db, user, [row.id]);
  return { ...snapshotView(row, deliveries), items: JSON.parse(row.items_json) as unknown[] };
}

/** The exact document stored for (and sent to) one connection. */
export async function deliveredDocument(ctx: ServiceContext, user: AuthUser, deliveryId: string) {
  const row = await findVisibleDelivery(ctx.db, user, deliveryId);
  if (!row) throw notFound('Delivery not found');
  if (row.document === null) throw notFound('No document was built for this delivery');
  return {
    body: row.document,
    contentType: row.content_type ?? 'text/plain',
    fileName: row.file_name ?? 'document',
  };
}

/**
 * Sends a PENDING (interrupted) or FAILED delivery again with the very same stored document, so
 * control numbers and idempotency keys do not change. Needs an admin grant for the brand at the
 * snapshot's facility, or (brand level) at a facility in the delivery's organisation.
 */
export async function retryDelivery(ctx: ServiceContext, user: AuthUser, deliveryId: string) {
  const visible = await findVisibleDelivery(ctx.db, user, deliveryId);
  if (!visible) throw notFound('Delivery not found');
  const admin = visible.facility_id
    ? await hasAdminGrant(ctx.db, user.id, visible.brand_id, visible.facility_id)
    : await hasAdminGrantInOrganization(ctx.db, user, visible.brand_id, visible.organization_id);
  if (!admin) throw forbidden();
  if (visible.status === 'SUCCESS') throw invalidRequest('This delivery has already succeeded');
  if (!claimDelivery(ctx, visible.id)) throw invalidRequest('This delivery is being sent');
  let job: DeliveryJob;
  let leased = false;
  try {
    // On PostgreSQL, another central process may be sending it (runDeliveries takes this lease
    // again and gives it back once the outcome is committed).
    leased = await leaseDelivery(ctx, 'advice_deliveries', visible.id);
    // Read again now that it is ours: a send that just finished may have recorded a SUCCESS.
    const row = await findDeliveryToSend(ctx.db, visible.id);
    if (!row) throw notFound('Delivery not found');
    if (row.status === 'SUCCESS') throw invalidRequest('This delivery has already succeeded');
    if (!leased) throw invalidRequest('This delivery is being sent');
    if (!ownSenderIds(ctx.sync).includes(row.sender_id)) {
      throw conflict(`This delivery is sent by ${describeSender(row.sender_id)}`);
    }
    if (
      row.connection_id &&
      (await newerSnapshotDelivered(
        ctx.db,
        row.connection_id,
        row.facility_id,
        row.snapshot_created_at,
      ))
    ) {
      // A full snapshot replaces stock levels: resending an older one would roll the retailer back.
      throw invalidRequest('A newer snapshot has already been delivered to this connection');
    }
    const { document, content_type, file_name, transport_json } = row;
    if (!document || !transport_json || !content_type || !file_name) {
      throw invalidRequest('This delivery has no document to send');
    }
    job = resendJob(
      { ...row, document, content_type, file_name },
      transportOf({ transport_json }),
      false,
    );
  } catch (error) {
    try {
      if (leased) await releaseDeliveryLease(ctx, visible.id);
    } finally {
      releaseDelivery(ctx, visible.id);
    }
    throw error;
  }
  const outcome = (await runDeliveries(ctx, [job])).get(visible.id)!;
  return {
    message: outcome.success ? 'Delivery sent successfully' : 'Delivery failed',
    data: { delivery_id: visible.id, success: outcome.success, error: outcome.error },
  };
}

/** Shown at start: what a crash left in the outbox (the drainer sends it again). */
export async function pendingDeliveriesNotice(ctx: ServiceContext): Promise<string | null> {
  const count = await countPendingDeliveries(ctx.db, ownSenderIds(ctx.sync));
  if (count === 0) return null;
  return `${count} inventory ${count === 1 ? 'delivery' : 'deliveries'} from an earlier run did not finish; ${count === 1 ? 'it is' : 'they are'} sent again automatically (Inventory > Recent snapshots shows progress)`;
}
