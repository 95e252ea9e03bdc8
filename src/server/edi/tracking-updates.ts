/**
 * SEND_TRACKING: when a shipped order's carrier facts change (a bill of lading uploaded after
 * ship with another BOL number, PRO, carrier or SCAC), each direct-API connection that takes the
 * order's shipment confirmation (`order_documents.send` names 856) gets a TRACKING document,
 * written in the upload's own transaction through the order-document outbox and sent after the
 * commit with its id as the Idempotency-Key. One document per actual change: the order is read
 * inside the transaction, so an upload that repeats what is stored (or two racing uploads of the
 * same values) queues nothing the second time. Before ship there is nothing to update: the
 * shipment confirmation carries the facts.
 */
import type { ServiceContext } from '../core/context';
import type { Db } from '../db/db';
import { connectionsForOrder } from './queries';
import { queueDocument, type QueuedDocument } from './queue';
import { orderDocumentSettingsOf } from './settings';
import { releaseShipDocuments, sendAfterCommit } from './ship-answer';
import {
  buildTrackingUpdate,
  TRACKED_FACTS,
  type TrackedFact,
  type TrackingFacts,
} from './tracking-update';

/** What the upload does after its commit (send) or when it rolls back (release the claims). */
export interface TrackingSends {
  send(): Promise<void>;
  release(): void;
}

/**
 * Call inside the transaction that writes `facts` to the order, before it writes them. Absent
 * facts (undefined) keep the order's value and are no change.
 */
export async function queueTrackingUpdates(
  ctx: ServiceContext,
  trx: Db,
  orderId: string,
  facts: Partial<Record<TrackedFact, string | null | undefined>>,
  at: string,
): Promise<TrackingSends> {
  const queued = await queueFor(ctx, trx, orderId, facts, at);
  return {
    send: async () => {
      await sendAfterCommit(ctx, queued);
    },
    release: () => releaseShipDocuments(ctx, queued),
  };
}

async function queueFor(
  ctx: ServiceContext,
  trx: Db,
  orderId: string,
  facts: Partial<Record<TrackedFact, string | null | undefined>>,
  at: string,
): Promise<QueuedDocument[]> {
  const order = await trx
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (order?.status !== 'Shipped') return [];
  const before = Object.fromEntries(TRACKED_FACTS.map((f) => [f, order[f]])) as TrackingFacts;
  const changed = TRACKED_FACTS.filter((f) => facts[f] !== undefined && facts[f] !== before[f]);
  if (changed.length === 0) return [];
  const connections = (await connectionsForOrder(trx, order)).filter(
    (c) =>
      c.kind === 'DIRECT_API' &&
      orderDocumentSettingsOf(c.order_documents_json)?.send.includes('856'),
  );
  if (connections.length === 0) return [];
  const after = { ...before };
  for (const fact of changed) after[fact] = facts[fact] ?? null;
  const cartons = await trx
    .selectFrom('cartons')
    .select('parcel_tracking_number')
    .where('order_id', '=', order.id)
    .where('parcel_tracking_number', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const input = {
    orderId: order.id,
    poNumber: order.po_number,
    shippedAt: order.shipped_at,
    before,
    after,
    changed,
    trackingNumbers: cartons.map((c) => c.parcel_tracking_number!).filter((n) => n !== ''),
    at,
  };
  const queued: QueuedDocument[] = [];
  for (const connection of connections) {
    queued.push(
      await queueDocument(
        ctx,
        trx,
        order,
        connection,
        at,
        'TRACKING',
        () => ({
          kind: 'json',
          type: 'TRACKING',
          text: (id) => buildTrackingUpdate(id, input),
        }),
        'tracking update',
      ),
    );
  }
  return queued;
}
