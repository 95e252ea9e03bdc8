import { createHash } from 'node:crypto';
import type { Db } from '../db/db';
import { findVisibleFacility } from '../access';
import { brandWorksAt } from '../access';
import {
  findIdempotentAnswer,
  insertIdempotentAnswer,
  insertTransactionRow,
  picksheetTaken,
  retailerConnected,
} from './queries';
import type { CreateOrderBody, OrderIdData } from '../../shared/orders';
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict, DomainError, invalidRequest } from '../core/errors';
import { orderLogRow, type OrderTrail } from './log';
import { insertNewOrder } from './insert-new';
import { CREATE_FAILED_PREFIX } from './validation';
import { engineOf } from '../db/engine';
import { lockIdempotencyKey as sqliteLockKey } from './idempotency-lock';
import { lockIdempotencyKey as postgresLockKey } from './idempotency-lock.postgres';

export const ORDER_CREATED = 'Order created successfully';

export interface OrderWriteAnswer {
  status: number;
  body: { message: string; data: OrderIdData };
  /** True when an Idempotency-Key retry got the first answer back. */
  replayed: boolean;
}

const createFailed = (detail: string) =>
  invalidRequest(`${CREATE_FAILED_PREFIX}${detail}`, { details: detail });

/**
 * Creates an order (endpoint 4) in one transaction with its transaction-log row. With an
 * idempotency key, the first answer for (user, key) is stored in that same transaction and a
 * retry gets it back; the same key with another body is refused (409).
 */
export async function createOrder(
  ctx: ServiceContext,
  user: AuthUser,
  body: CreateOrderBody,
  idempotencyKey: string | null,
  trail: OrderTrail = {},
  /** More of the same write, in its transaction (sync: the conflict the new order settles). */
  within?: (trx: Db, orderId: string) => Promise<void>,
): Promise<OrderWriteAnswer> {
  const startedAt = performance.now();
  const requestHash = idempotencyKey === null ? '' : hashBody(body);
  return ctx.db
    .transaction()
    .execute(async (trx) => {
      if (idempotencyKey !== null) {
        const lockKey = engineOf(trx) === 'postgres' ? postgresLockKey : sqliteLockKey;
        await lockKey(trx, user.id, idempotencyKey);
        const earlier = await findIdempotentAnswer(trx, user.id, idempotencyKey);
        if (earlier) {
          if (earlier.request_hash !== requestHash) {
            throw conflict(
              `${CREATE_FAILED_PREFIX}Idempotency-Key was already used for another order`,
              {
                details:
                  'This Idempotency-Key was sent before with a different body; use a new key for a new order',
              },
            );
          }
          return {
            status: earlier.response_status,
            body: JSON.parse(earlier.response_json) as OrderWriteAnswer['body'],
            replayed: true,
          };
        }
      }
      await checkReferences(trx, user, body, trail);
      if (await picksheetTaken(trx, body.facility_id, body.picksheet_code)) {
        throw conflict(
          `${CREATE_FAILED_PREFIX}picksheet_code ${body.picksheet_code} already exists at this facility`,
          { details: `picksheet_code: ${body.picksheet_code} is taken at this facility` },
        );
      }
      const at = ctx.clock.now().toISOString();
      const orderId = await insertNewOrder(trx, body, at);
      const answer: OrderWriteAnswer = {
        status: 201,
        body: { message: ORDER_CREATED, data: { order_id: orderId } },
        replayed: false,
      };
      await insertTransactionRow(
        trx,
        orderLogRow({
          action: 'create',
          orderId,
          brandId: body.brand_id,
          retailerId: body.retailer_id,
          facilityId: body.facility_id,
          correlationId: idempotencyKey,
          startedAt,
          at,
          status: 'SUCCESS',
          payload: body,
          responseStatus: answer.status,
          responseBody: answer.body,
        }),
      );
      if (within) await within(trx, orderId);
      if (idempotencyKey !== null) {
        await insertIdempotentAnswer(trx, {
          user_id: user.id,
          idempotency_key: idempotencyKey,
          request_hash: requestHash,
          response_status: answer.status,
          response_json: JSON.stringify(answer.body),
          order_id: orderId,
          created_at: at,
        });
      }
      return answer;
    })
    .catch((error: unknown) => {
      throw uniqueViolationAsConflict(error, body.picksheet_code);
    });
}

/**
 * Facility visible, brand working there (and the user's brand, if it acts for one), retailer
 * connected to the brand in the facility's organisation. Unknown and invisible ids get the same
 * words, so nothing of another tenant shows.
 */
async function checkReferences(db: Db, user: AuthUser, body: CreateOrderBody, trail: OrderTrail) {
  const facility = await findVisibleFacility(db, user, body.facility_id);
  if (!facility) throw createFailed('facility_id: no such facility');
  trail.facilityId = facility.id;
  const brandVisible = !user.brandId || user.brandId === body.brand_id;
  if (!brandVisible || !(await brandWorksAt(db, body.brand_id, body.facility_id))) {
    throw createFailed('brand_id: no such brand at this facility');
  }
  trail.brandId = body.brand_id;
  if (!(await retailerConnected(db, facility.organization_id, body.brand_id, body.retailer_id))) {
    throw createFailed('retailer_id: no such retailer for this brand at this facility');
  }
  trail.retailerId = body.retailer_id;
}

/** Another writer's insert can still win the unique index (e.g. a second process): same 409. */
export function uniqueViolationAsConflict(error: unknown, picksheetCode: string): unknown {
  if (error instanceof DomainError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505') {
    return conflict(
      `${CREATE_FAILED_PREFIX}picksheet_code ${picksheetCode} already exists at this facility`,
      { details: `picksheet_code: ${picksheetCode} is taken at this facility` },
    );
  }
  return error;
}

/** SHA-256 of the parsed body with keys sorted, so key order and spacing do not matter. */
function hashBody(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
