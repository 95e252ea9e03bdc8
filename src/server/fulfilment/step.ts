import type { Db } from '../db/db';
import { engineOf } from '../db/engine';
import {
  findOrderForUser,
  insertTransactionRow,
  postgresLockOrderRow,
  sqliteLockOrderRow,
  type OrderRow,
} from '../orders';
import type { StepResult } from '../../shared/fulfilment';
import type { AuthUser, ServiceContext } from '../core/context';
import { notFound } from '../core/errors';
import { ORDER_NOT_FOUND } from '../orders';
import {
  FULFILMENT_ACTIONS,
  stepLogRow,
  type FulfilmentAction,
  type StepIds,
  type StepTrail,
} from './log';

export type { StepTrail };

export interface StepScope {
  trx: Db;
  order: OrderRow;
  user: AuthUser;
  /** The step's time (ISO 8601 UTC), for every row it writes. */
  at: string;
  /** Logs the step's SUCCESS row as another action (same path, status and message). */
  logAs: (action: FulfilmentAction) => void;
}

export interface StepAnswer<T> {
  status: number;
  body: { message: string; data: T };
}

export interface StepRequest {
  action: FulfilmentAction;
  orderId: string;
  ids?: StepIds;
  payload?: unknown;
  /** Filled as the step verifies the order (the route's failure log row uses it). */
  trail?: StepTrail;
}

/**
 * Runs one fulfilment step as a domain command: one transaction that finds the order in the
 * user's scope (another tenant's answers `Order not found`), applies the step and writes its
 * SUCCESS row to the transaction log.
 */
export async function runStep<T = StepResult>(
  ctx: ServiceContext,
  user: AuthUser,
  request: StepRequest,
  apply: (scope: StepScope) => Promise<T>,
): Promise<StepAnswer<T>> {
  const startedAt = performance.now();
  const action = FULFILMENT_ACTIONS[request.action];
  return ctx.db.transaction().execute(async (trx) => {
    let order = await findOrderForUser(trx, user, request.orderId);
    if (!order) throw notFound(ORDER_NOT_FOUND);
    // On PostgreSQL's pool steps on one order overlap: each takes the order's row lock and reads
    // it again, so a step decides on what the one before it committed (50 parallel reopens: one
    // 200, 49 refusals), as SQLite's one connection gives by itself.
    const lockOrderRow = engineOf(trx) === 'postgres' ? postgresLockOrderRow : sqliteLockOrderRow;
    if (await lockOrderRow(trx, order.id)) {
      order = await findOrderForUser(trx, user, order.id);
      if (!order) throw notFound(ORDER_NOT_FOUND);
    }
    const trail: StepTrail = request.trail ?? {};
    Object.assign(trail, {
      orderId: order.id,
      brandId: order.brand_id,
      retailerId: order.retailer_id,
      facilityId: order.facility_id,
    });
    const at = ctx.clock.now().toISOString();
    let logged = request.action;
    const logAs = (action: FulfilmentAction) => {
      logged = action;
    };
    const data = await apply({ trx, order, user, at, logAs });
    const answer = { status: action.status, body: { message: action.message, data } };
    await insertTransactionRow(
      trx,
      stepLogRow({
        action: logged,
        orderId: order.id,
        trail,
        ids: request.ids ?? {},
        startedAt,
        at,
        status: 'SUCCESS',
        payload: request.payload,
        responseStatus: answer.status,
        responseBody: answer.body,
      }),
    );
    return answer;
  });
}
