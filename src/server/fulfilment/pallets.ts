import { randomUUID } from 'node:crypto';
import {
  deletePallet as deletePalletRow,
  findCarton,
  findPallet,
  insertPallet,
  listCartons,
  setCartonsPallet,
} from './queries';
import { updateOrderColumns } from '../orders';
import type { CreatePalletBody, MoveCartonBody, StepResult } from '../../shared/fulfilment';
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict, notFound } from '../core/errors';
import { requireStatus } from './rules';
import { allocateSscc } from './sscc';
import { runStep, type StepScope, type StepTrail } from './step';
import { palletView } from './views';

export const PALLET_NOT_FOUND = 'Pallet not found';

/**
 * Palletising: pallets (each with a fresh SSCC, status Open) are made and cartons put on them,
 * moved between them or taken off, while the order is Picking or Packed (before staging).
 */

/** A pallet of the order that still takes cartons. */
export async function requireOpenPallet({ trx, order }: StepScope, palletId: string) {
  const pallet = await findPallet(trx, order.id, palletId);
  if (!pallet) throw notFound(PALLET_NOT_FOUND);
  if (pallet.status !== 'Open') {
    throw conflict(
      `Pallet ${pallet.sscc ?? pallet.id} is ${pallet.status}; only an Open pallet takes cartons`,
    );
  }
  return pallet;
}

/** Closed cartons of the order; an unknown id answers 404, an open carton 409. */
async function requireClosedCartons({ trx, order }: StepScope, cartonIds: readonly string[]) {
  const cartons = await listCartons(trx, order.id);
  const byId = new Map(cartons.map((c) => [c.id, c]));
  for (const id of cartonIds) {
    const carton = byId.get(id);
    if (!carton) throw notFound('Carton not found', 'NOT_FOUND');
    if (carton.packing_complete_at === null) {
      throw conflict(
        `Carton ${carton.sscc ?? carton.id} is still open; close it before palletising`,
      );
    }
  }
}

async function palletResult({ trx, order }: StepScope, palletId: string): Promise<StepResult> {
  const pallet = await findPallet(trx, order.id, palletId);
  if (!pallet) throw new Error(`palletResult: pallet ${palletId} vanished`);
  const cartonIds = (await listCartons(trx, order.id))
    .filter((c) => c.pallet_id === palletId)
    .map((c) => c.id);
  return { order_id: order.id, status: order.status, pallet: palletView(pallet, cartonIds) };
}

/** POST …/pallets: a new Open pallet, optionally with cartons put on it at once. */
export function createPallet(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  body: CreatePalletBody,
  trail?: StepTrail,
) {
  return runStep(
    ctx,
    user,
    { action: 'createPallet', orderId, payload: body, trail },
    async (scope) => {
      requireStatus(scope.order, 'palletising');
      await requireClosedCartons(scope, body.carton_ids);
      const id = randomUUID();
      await insertPallet(scope.trx, {
        id,
        order_id: scope.order.id,
        sscc: await allocateSscc(scope.trx, scope.order.brand_id, 'pallet'),
        status: 'Open',
        created_at: scope.at,
        staged_by: null,
        staged_at: null,
        dim_unit: body.dim_unit ?? null,
        height: body.height ?? null,
        width: body.width ?? null,
        length: body.length ?? null,
        weight_unit: body.weight_unit ?? null,
        weight: body.weight ?? null,
      });
      await setCartonsPallet(scope.trx, scope.order.id, body.carton_ids, id);
      await updateOrderColumns(scope.trx, scope.order.id, { updated_at: scope.at });
      return palletResult(scope, id);
    },
  );
}

/** PUT …/cartons/{carton_id}/pallet: onto another Open pallet of the order, or off (null). */
export function moveCarton(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  cartonId: string,
  body: MoveCartonBody,
  trail?: StepTrail,
) {
  return runStep(
    ctx,
    user,
    {
      action: 'moveCarton',
      orderId,
      ids: { cartonId, palletId: body.pallet_id ?? undefined },
      payload: body,
      trail,
    },
    async (scope) => {
      requireStatus(scope.order, 'palletising');
      const carton = await findCarton(scope.trx, scope.order.id, cartonId);
      if (!carton) throw notFound('Carton not found');
      if (body.pallet_id !== null) {
        await requireClosedCartons(scope, [cartonId]);
        await requireOpenPallet(scope, body.pallet_id);
      }
      await setCartonsPallet(scope.trx, scope.order.id, [cartonId], body.pallet_id);
      await updateOrderColumns(scope.trx, scope.order.id, { updated_at: scope.at });
      const moved = (await findCarton(scope.trx, scope.order.id, cartonId))!;
      return {
        order_id: scope.order.id,
        status: scope.order.status,
        ...(moved.pallet_id ? await palletResult(scope, moved.pallet_id) : {}),
      };
    },
  );
}

/** DELETE …/pallets/{pallet_id}: the pallet goes; its cartons stay packed, off any pallet. */
export function deletePallet(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  palletId: string,
  trail?: StepTrail,
) {
  return runStep(
    ctx,
    user,
    { action: 'deletePallet', orderId, ids: { palletId }, trail },
    async (scope) => {
      requireStatus(scope.order, 'palletising');
      const pallet = await findPallet(scope.trx, scope.order.id, palletId);
      if (!pallet) throw notFound(PALLET_NOT_FOUND);
      await deletePalletRow(scope.trx, pallet.id);
      await updateOrderColumns(scope.trx, scope.order.id, { updated_at: scope.at });
      return { order_id: scope.order.id, status: scope.order.status };
    },
  );
}
