import type { Insertable } from 'kysely';
import { insertTransactionRow } from './queries';
import type { TransactionsTable } from '../db/schema';
import type { ServiceContext } from '../core/context';

/**
 * Transaction-log action codes of order writes (the interface's filter codes): a create is
 * CREATE_ORDERS_FROM, an update INGEST_ORDER_PUT, a facility change INGEST_PURCHASE_ORDER_CHANGE.
 */
export const ORDER_ACTIONS = {
  create: { code: 'CREATE_ORDERS_FROM', label: 'Create order', method: 'POST' },
  update: { code: 'INGEST_ORDER_PUT', label: 'Update order', method: 'PUT' },
  move: { code: 'INGEST_PURCHASE_ORDER_CHANGE', label: 'Change order facility', method: 'PUT' },
} as const;
export type OrderAction = keyof typeof ORDER_ACTIONS;

export const ORDER_URLS: Record<OrderAction, string> = {
  create: '/api/v1/orders/create',
  update: '/api/v1/orders',
  move: '/api/v1/orders/change-facility',
};

export interface OrderLogEntry extends LogOutcome {
  action: OrderAction;
  orderId: string | null;
  brandId: string | null;
  retailerId: string | null;
  facilityId: string | null;
  correlationId?: string | null;
  payload: unknown;
}

/** One transaction-log row for an order write. */
export function orderLogRow(entry: OrderLogEntry): Insertable<TransactionsTable> {
  const action = ORDER_ACTIONS[entry.action];
  return {
    transaction_id: crypto.randomUUID(),
    action_type: action.code,
    action_type_label: action.label,
    brand_id: entry.brandId,
    retailer_id: entry.retailerId,
    facility_id: entry.facilityId,
    order_id: entry.orderId,
    carton_id: null,
    load_id: null,
    correlation_id: entry.correlationId ?? null,
    request_method: action.method,
    request_url: ORDER_URLS[entry.action],
    request_payload: entry.payload === undefined ? null : JSON.stringify(entry.payload),
    ...logRowOutcome(entry),
  };
}

/** What a write's log row says of its run: time taken, outcome, answer, when. */
export interface LogOutcome {
  startedAt: number;
  at: string;
  status: TransactionsTable['execution_status'];
  errorMessage?: string | null;
  responseStatus: number;
  responseBody: unknown;
}

/** The columns of a log row every write fills the same way. */
export function logRowOutcome(entry: LogOutcome) {
  return {
    duration_ms: Math.max(0, Math.round(performance.now() - entry.startedAt)),
    error_message: entry.errorMessage ?? null,
    execution_status: entry.status,
    response_body: entry.responseBody === undefined ? null : JSON.stringify(entry.responseBody),
    response_status: entry.responseStatus,
    created_at: entry.at,
    updated_at: entry.at,
  };
}

/**
 * What a write has verified so far: ids of an order, brand, retailer or facility the user may
 * see. A refused write's log row carries only these, so it never names another tenant's records.
 */
export interface OrderTrail {
  orderId?: string;
  brandId?: string;
  retailerId?: string;
  facilityId?: string;
}

export interface OrderFailure {
  action: OrderAction;
  trail: OrderTrail;
  startedAt: number;
  correlationId: string | null;
  payload: unknown;
  responseStatus: number;
  responseBody: unknown;
  errorMessage: string;
}

/**
 * The FAILURE row of a refused write, in its own transaction (the write's has rolled back).
 * Best effort: a log that cannot be written must not replace the answer the client gets.
 */
export async function recordOrderFailure(ctx: ServiceContext, failure: OrderFailure) {
  try {
    await insertTransactionRow(
      ctx.db,
      orderLogRow({
        action: failure.action,
        orderId: failure.trail.orderId ?? null,
        brandId: failure.trail.brandId ?? null,
        retailerId: failure.trail.retailerId ?? null,
        facilityId: failure.trail.facilityId ?? null,
        correlationId: failure.correlationId,
        startedAt: failure.startedAt,
        at: ctx.clock.now().toISOString(),
        status: 'FAILURE',
        errorMessage: failure.errorMessage,
        payload: failure.payload,
        responseStatus: failure.responseStatus,
        responseBody: failure.responseBody,
      }),
    );
  } catch {
    // The client's error answer matters more than its log row.
  }
}
