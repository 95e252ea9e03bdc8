import { brandWorksAt } from '../access';
import { findVisibleFacility } from '../access';
import {
  insertTransactionRow,
  picksheetTaken,
  retailerConnected,
  updateOrderColumns,
} from './queries';
import { MOVABLE_STATUSES, type ChangeFacilityBody } from '../../shared/orders';
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict, invalidRequest } from '../core/errors';
import type { OrderWriteAnswer } from './create';
import { findOrderToChange, isOneOf, refuseFinished } from './find';
import { orderLogRow, type OrderTrail } from './log';
import { INVALID_BODY } from './validation';
import { engineOf } from '../db/engine';
import { lockOrderRow as sqliteLockOrder } from './order-lock';
import { lockOrderRow as postgresLockOrder } from './order-lock.postgres';

export const FACILITY_CHANGED = 'Facility changed successfully';
export const ORDER_NOT_MOVABLE = 'Order cannot be moved';

/**
 * Moves an order to another facility (endpoint 6): only before packing, to a facility the user
 * sees and the brand works at, where the retailer is connected to the brand and the picksheet
 * code is free. Moving to the facility it is at changes nothing (logged as SKIP).
 */
export async function changeOrderFacility(
  ctx: ServiceContext,
  user: AuthUser,
  body: ChangeFacilityBody,
  trail: OrderTrail = {},
): Promise<OrderWriteAnswer> {
  const startedAt = performance.now();
  return ctx.db.transaction().execute(async (trx) => {
    const find = () =>
      findOrderToChange(
        trx,
        user,
        {
          picksheetCode: body.picksheet_code,
          brandId: body.brand_id,
          retailerId: body.retailer_id,
          orderId: body.order_id,
        },
        ['brand_id', 'retailer_id', 'order_id'],
      );
    let order = await find();
    // PostgreSQL: parallel moves of the order wait here for each other, then read it afresh.
    const lockOrderRow = engineOf(trx) === 'postgres' ? postgresLockOrder : sqliteLockOrder;
    if (await lockOrderRow(trx, order.id)) order = await find();
    Object.assign(trail, {
      orderId: order.id,
      brandId: order.brand_id,
      retailerId: order.retailer_id,
      facilityId: order.facility_id,
    });
    refuseFinished(order, ORDER_NOT_MOVABLE);
    if (!isOneOf(order.status, MOVABLE_STATUSES)) {
      throw conflict(ORDER_NOT_MOVABLE, {
        details: `Only orders not yet packed can move; the order is ${order.status}`,
      });
    }
    const destination = await findVisibleFacility(trx, user, body.facility_id);
    if (!destination) {
      throw invalidRequest(INVALID_BODY, { details: 'facility_id: no such facility' });
    }
    const moved = destination.id !== order.facility_id;
    if (moved) {
      if (!(await brandWorksAt(trx, order.brand_id, destination.id))) {
        throw invalidRequest(INVALID_BODY, {
          details: `facility_id: the order's brand does not work at ${destination.name}`,
        });
      }
      if (
        !(await retailerConnected(
          trx,
          destination.organization_id,
          order.brand_id,
          order.retailer_id,
        ))
      ) {
        throw invalidRequest(INVALID_BODY, {
          details: `facility_id: the order's retailer is not connected to its brand at ${destination.name}`,
        });
      }
      if (await picksheetTaken(trx, destination.id, order.picksheet_code)) {
        throw conflict(ORDER_NOT_MOVABLE, {
          details: `picksheet_code ${order.picksheet_code} already exists at ${destination.name}`,
        });
      }
    }
    const at = ctx.clock.now().toISOString();
    if (moved) {
      await updateOrderColumns(trx, order.id, { facility_id: destination.id, updated_at: at });
    }
    const answer: OrderWriteAnswer = {
      status: 200,
      body: { message: FACILITY_CHANGED, data: { order_id: order.id } },
      replayed: false,
    };
    await insertTransactionRow(
      trx,
      orderLogRow({
        action: 'move',
        orderId: order.id,
        brandId: order.brand_id,
        retailerId: order.retailer_id,
        facilityId: destination.id,
        startedAt,
        at,
        status: moved ? 'SUCCESS' : 'SKIP',
        // Where it came from, beside the request body: the log shows both ends of a move.
        payload: { ...body, from_facility_id: order.facility_id },
        responseStatus: answer.status,
        responseBody: answer.body,
      }),
    );
    return answer;
  });
}
