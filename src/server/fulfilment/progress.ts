import { listCartons, listPallets, updateOrderPallets } from './queries';
import {
  announceShipDocuments,
  queueShipDocuments,
  releaseShipDocuments,
  type QueuedDocument,
} from '../edi';
import { updateOrderColumns } from '../orders';
import type { StepResult } from '../../shared/fulfilment';
import type { AuthUser, ServiceContext } from '../core/context';
import { refuseIfMissing, requireStatus, shippingBlockers, stagingBlockers } from './rules';
import { runStep, type StepTrail } from './step';

/**
 * The order's steps after packing: stage (pallets staged), load (pallets loaded), ship (the ASN
 * is queued and sent: see edi/), and cancel before shipping. Also start picking, the first step.
 */

const result = (orderId: string, status: StepResult['status']): StepResult => ({
  order_id: orderId,
  status,
});

/** POST …/start-picking: Open → Picking (started_at). */
export function startPicking(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  trail?: StepTrail,
) {
  return runStep(
    ctx,
    user,
    { action: 'startPicking', orderId, trail },
    async ({ trx, order, at }) => {
      requireStatus(order, 'start picking');
      await updateOrderColumns(trx, order.id, {
        status: 'Picking',
        started_at: at,
        updated_at: at,
      });
      return result(order.id, 'Picking');
    },
  );
}

/**
 * POST …/stage: Packed → Staged (staged_at); every pallet → Staged with staged_at and staged_by
 * (the user's email). Refused while a carton is open or, for pallet orders, off a pallet.
 */
export function stageOrder(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  trail?: StepTrail,
) {
  return runStep(ctx, user, { action: 'stage', orderId, trail }, async ({ trx, order, at }) => {
    requireStatus(order, 'staging');
    const [cartons, pallets] = await Promise.all([
      listCartons(trx, order.id),
      listPallets(trx, order.id),
    ]);
    refuseIfMissing(
      'stage',
      stagingBlockers({ order, cartons, pallets, orderedUnits: 0, packedUnits: 0 }),
    );
    await updateOrderPallets(trx, order.id, {
      status: 'Staged',
      staged_at: at,
      staged_by: user.email,
    });
    await updateOrderColumns(trx, order.id, { status: 'Staged', staged_at: at, updated_at: at });
    return result(order.id, 'Staged');
  });
}

/** POST …/load: Staged → Loaded (loaded_at); every pallet → Loaded. */
export function loadOrder(ctx: ServiceContext, user: AuthUser, orderId: string, trail?: StepTrail) {
  return runStep(ctx, user, { action: 'load', orderId, trail }, async ({ trx, order, at }) => {
    requireStatus(order, 'loading');
    await updateOrderPallets(trx, order.id, { status: 'Loaded' });
    await updateOrderColumns(trx, order.id, { status: 'Loaded', loaded_at: at, updated_at: at });
    return result(order.id, 'Loaded');
  });
}

/**
 * POST …/ship: Loaded → Shipped (shipped_at); its log row is SEND_ASN, or SHIP_ORDER when an ASN
 * document is queued (its send writes the SEND_ASN row with the outcome). A pallet order needs its
 * bill of lading first. In the same transaction each connection of the order's brand and
 * retailer that sends 856s gets its ASN (or a direct-API shipment confirmation) queued; after
 * the commit they are sent, and `asn_sent_at` is set only once a transport took one. The answer
 * says what happened: sent, queued, failed, or no ASN set up.
 */
export async function shipOrder(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  trail?: StepTrail,
) {
  let queued: QueuedDocument[] = [];
  let answer;
  try {
    answer = await runStep(ctx, user, { action: 'ship', orderId, trail }, async (scope) => {
      const { trx, order, at } = scope;
      requireStatus(order, 'shipping');
      refuseIfMissing('ship', shippingBlockers(order));
      await updateOrderColumns(trx, order.id, {
        status: 'Shipped',
        shipped_at: at,
        updated_at: at,
      });
      queued = await queueShipDocuments(ctx, trx, order, at);
      if (queued.some((d) => d.type !== '810' && d.error === null)) {
        scope.logAs('shipWithAsnDocument');
      }
      return result(order.id, 'Shipped');
    });
  } catch (error) {
    releaseShipDocuments(ctx, queued);
    throw error;
  }
  const message = await announceShipDocuments(ctx, queued);
  return { ...answer, body: { ...answer.body, message } };
}

/** POST …/cancel: any status before Shipped → Cancelled (cancelled_at); cartons stay as history. */
export function cancelOrder(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  trail?: StepTrail,
) {
  return runStep(ctx, user, { action: 'cancel', orderId, trail }, async ({ trx, order, at }) => {
    requireStatus(order, 'cancelling');
    await updateOrderColumns(trx, order.id, {
      status: 'Cancelled',
      cancelled_at: at,
      updated_at: at,
    });
    return result(order.id, 'Cancelled');
  });
}
