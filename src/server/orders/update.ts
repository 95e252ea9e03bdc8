import type { Updateable } from 'kysely';
import type { Db } from '../db/db';
import {
  insertTransactionRow,
  listOrderItems,
  replaceOrderItems,
  updateOrderColumns,
} from './queries';
import type { OrdersTable } from '../db/schema';
import { ITEM_EDITABLE_STATUSES, type UpdateOrderBody } from '../../shared/orders';
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict } from '../core/errors';
import type { OrderWriteAnswer } from './create';
import { findOrderToChange, isOneOf, refuseFinished } from './find';
import { orderLogRow, type OrderTrail } from './log';
import { addressColumns, dateColumns, textColumns, updateItemRows } from './rows';

export const ORDER_UPDATED = 'Order updated successfully';
export const ORDER_NOT_UPDATABLE = 'Order cannot be updated';

/**
 * Updates an order (endpoint 5): the fields given change, the rest stay; `items` replaces every
 * line and is accepted only before packing. One transaction with its transaction-log row.
 */
export async function updateOrder(
  ctx: ServiceContext,
  user: AuthUser,
  body: UpdateOrderBody,
  trail: OrderTrail = {},
  /** More of the same write, in its transaction (sync: the conflict this edit settles). */
  within?: (trx: Db) => Promise<void>,
): Promise<OrderWriteAnswer> {
  const startedAt = performance.now();
  return ctx.db.transaction().execute(async (trx) => {
    const order = await findOrderToChange(
      trx,
      user,
      {
        picksheetCode: body.picksheet_code,
        brandId: body.brand_id,
        retailerId: body.retailer_id,
        facilityId: body.facility_id,
        orderId: body.order_id,
      },
      ['brand_id', 'retailer_id', 'facility_id', 'order_id'],
    );
    Object.assign(trail, {
      orderId: order.id,
      brandId: order.brand_id,
      retailerId: order.retailer_id,
      facilityId: order.facility_id,
    });
    refuseFinished(order, ORDER_NOT_UPDATABLE);
    if (body.items !== undefined && !isOneOf(order.status, ITEM_EDITABLE_STATUSES)) {
      throw conflict(ORDER_NOT_UPDATABLE, {
        details: `Items change only before packing; the order is ${order.status}`,
      });
    }
    const at = ctx.clock.now().toISOString();
    const changes: Updateable<OrdersTable> = {
      ...textColumns(body),
      ...addressColumns(body.address_data),
      ...dateColumns(body.dates),
      updated_at: at,
    };
    await updateOrderColumns(trx, order.id, changes);
    if (body.items !== undefined) {
      const current = await listOrderItems(trx, order.id);
      await replaceOrderItems(trx, order.id, updateItemRows(body.items, current));
    }
    const answer: OrderWriteAnswer = {
      status: 200,
      body: { message: ORDER_UPDATED, data: { order_id: order.id } },
      replayed: false,
    };
    await insertTransactionRow(
      trx,
      orderLogRow({
        action: 'update',
        orderId: order.id,
        brandId: order.brand_id,
        retailerId: order.retailer_id,
        facilityId: order.facility_id,
        startedAt,
        at,
        status: 'SUCCESS',
        payload: body,
        responseStatus: answer.status,
        responseBody: answer.body,
      }),
    );
    if (within) await within(trx);
    return answer;
  });
}
