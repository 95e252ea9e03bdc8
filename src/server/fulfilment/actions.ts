import { randomUUID } from 'node:crypto';
import { insertActivity } from '../orders';
import { findCarton, findPallet } from './queries';
import type { RecordActionBody } from '../../shared/fulfilment';
import type { AuthUser, ServiceContext } from '../core/context';
import { notFound } from '../core/errors';
import { CARTON_NOT_FOUND } from './packing';
import { PALLET_NOT_FOUND } from './pallets';
import { runStep, type StepTrail } from './step';

/**
 * POST …/actions: a value-added service or carton/pallet work done for the order, with a count
 * (billing prices them per action type and name). Recorded in any status: work done on an order
 * that was later cancelled was still done. A carton or pallet named must be the order's.
 */
export function recordAction(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  body: RecordActionBody,
  trail?: StepTrail,
) {
  return runStep(
    ctx,
    user,
    {
      action: 'recordAction',
      orderId,
      payload: body,
      trail,
      ids: { cartonId: body.carton_id ?? undefined },
    },
    async ({ trx, order, at }) => {
      let sscc: string | null = null;
      if (body.carton_id) {
        const carton = await findCarton(trx, order.id, body.carton_id);
        if (!carton) throw notFound(CARTON_NOT_FOUND);
        sscc = carton.sscc;
      }
      if (body.pallet_id) {
        const pallet = await findPallet(trx, order.id, body.pallet_id);
        if (!pallet) throw notFound(PALLET_NOT_FOUND);
        sscc ??= pallet.sscc;
      }
      const entry = {
        id: randomUUID(),
        order_id: order.id,
        kind: 'ACTION' as const,
        action_type: body.action_type,
        metric: body.metric,
        count: body.count,
        carton_id: body.carton_id ?? null,
        pallet_id: body.pallet_id ?? null,
        sscc,
        user_id: user.id,
        created_at: at,
      };
      await insertActivity(trx, [entry]);
      const { order_id: _order, user_id: _user, ...shown } = entry;
      return shown;
    },
  );
}
