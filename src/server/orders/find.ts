import type { Db } from '../db/db';
import { findOrdersByPicksheet, type OrderRow, type PicksheetLookup } from './queries';
import type { OrderStatus } from '../../shared/orders';
import { FINAL_STATUSES } from '../../shared/orders';
import type { AuthUser } from '../core/context';
import { conflict, invalidRequest, notFound } from '../core/errors';
import { INVALID_BODY } from './validation';

export const ORDER_NOT_FOUND = 'Order not found';

/**
 * The one order the update and change-facility bodies name: its picksheet code within the user's
 * scope, narrowed by the ids given. None: 404 `Order not found` (also for other tenants' orders);
 * several (the same code at two facilities, or for two brands): 400 asking for the ids that tell
 * them apart.
 */
export async function findOrderToChange(
  db: Db,
  user: AuthUser,
  lookup: PicksheetLookup,
  /** The body fields that narrow the search, named in the answer when several orders match. */
  narrowers: readonly string[],
): Promise<OrderRow> {
  const matches = await findOrdersByPicksheet(db, user, lookup, 2);
  const [order] = matches;
  if (!order) {
    throw notFound(ORDER_NOT_FOUND);
  }
  if (matches.length > 1) {
    throw invalidRequest(INVALID_BODY, {
      details: `Several orders have picksheet_code ${lookup.picksheetCode}; give ${narrowers.join(', ')} to pick one`,
    });
  }
  return order;
}

/** Shipped and cancelled orders are never rewritten. */
export function refuseFinished(order: OrderRow, message: string) {
  if ((FINAL_STATUSES as readonly string[]).includes(order.status)) {
    throw conflict(message, {
      details: `The order is ${order.status}; a ${order.status.toLowerCase()} order cannot change`,
    });
  }
}

export const isOneOf = (status: OrderStatus, allowed: readonly OrderStatus[]) =>
  allowed.includes(status);
