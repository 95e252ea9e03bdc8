import type { Insertable } from 'kysely';
import { insertTransactionRow } from '../orders';
import type { TransactionsTable } from '../db/schema';
import type { ServiceContext } from '../core/context';
import { logRowOutcome, type LogOutcome } from '../orders';

/**
 * The fulfilment steps, each with its transaction-log action code, label, HTTP method and path,
 * success status and message. Shipping is the interface's SEND_ASN (the ASN goes out as the order
 * ships); when an ASN document goes out, its send writes the SEND_ASN row and the ship's own is
 * SHIP_ORDER. The interface lists no codes for the other steps, so they have their own.
 */
export const FULFILMENT_ACTIONS = {
  startPicking: step(
    'START_PICKING',
    'Start picking',
    'POST',
    'start-picking',
    200,
    'Picking started',
  ),
  packCarton: step('PACK_CARTON', 'Pack carton', 'POST', 'cartons', 201, 'Carton packed'),
  openCarton: step('OPEN_CARTON', 'Open carton', 'POST', 'cartons/open', 201, 'Carton opened'),
  scanUnit: step('PACK_UNIT', 'Pack scanned unit', 'POST', 'scan', 200, 'Unit packed'),
  closeCarton: step(
    'CLOSE_CARTON',
    'Close carton',
    'POST',
    'cartons/:carton_id/close',
    200,
    'Carton closed',
  ),
  unpackCarton: step(
    'UNPACK_CARTON',
    'Unpack carton',
    'DELETE',
    'cartons/:carton_id',
    200,
    'Carton unpacked',
  ),
  completePacking: step(
    'COMPLETE_PACKING',
    'Complete packing',
    'POST',
    'complete-packing',
    200,
    'Packing completed',
  ),
  reopenPacking: step(
    'REOPEN_PACKING',
    'Reopen packing',
    'POST',
    'reopen-packing',
    200,
    'Packing reopened',
  ),
  createPallet: step('CREATE_PALLET', 'Create pallet', 'POST', 'pallets', 201, 'Pallet created'),
  moveCarton: step(
    'MOVE_CARTON',
    'Move carton to pallet',
    'PUT',
    'cartons/:carton_id/pallet',
    200,
    'Carton moved',
  ),
  deletePallet: step(
    'DELETE_PALLET',
    'Delete pallet',
    'DELETE',
    'pallets/:pallet_id',
    200,
    'Pallet deleted',
  ),
  stage: step('STAGE_ORDER', 'Stage order', 'POST', 'stage', 200, 'Order staged'),
  load: step('LOAD_ORDER', 'Load order', 'POST', 'load', 200, 'Order loaded'),
  ship: step('SEND_ASN', 'Ship order and send ASN', 'POST', 'ship', 200, 'Order shipped'),
  // The ship's row when an ASN document is queued: that document's send writes the SEND_ASN
  // row with the outcome, so the log holds one SEND_ASN record per ASN, not two.
  shipWithAsnDocument: step('SHIP_ORDER', 'Ship order', 'POST', 'ship', 200, 'Order shipped'),
  cancel: step('CANCEL_ORDER', 'Cancel order', 'POST', 'cancel', 200, 'Order cancelled'),
  recordAction: step('RECORD_ACTION', 'Record action', 'POST', 'actions', 201, 'Action recorded'),
} as const;
export type FulfilmentAction = keyof typeof FULFILMENT_ACTIONS;

function step(
  code: string,
  label: string,
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  status: 200 | 201,
  message: string,
) {
  return { code, label, method, path, status, message };
}

/** The step's path with the ids filled in (the log keeps the URL that was called). */
export function stepUrl(action: FulfilmentAction, orderId: string, ids: StepIds = {}) {
  const path = FULFILMENT_ACTIONS[action].path
    .replace(':carton_id', ids.cartonId ?? ':carton_id')
    .replace(':pallet_id', ids.palletId ?? ':pallet_id');
  return `/api/v1/orders/${orderId}/${path}`;
}

export interface StepIds {
  cartonId?: string | undefined;
  palletId?: string | undefined;
}

/** What a step has verified so far (the order is the user's); a refusal's log row names only these. */
export interface StepTrail {
  orderId?: string;
  brandId?: string;
  retailerId?: string;
  facilityId?: string;
}

export interface StepLogEntry extends LogOutcome {
  action: FulfilmentAction;
  orderId: string;
  trail: StepTrail;
  ids: StepIds;
  payload: unknown;
}

export function stepLogRow(entry: StepLogEntry): Insertable<TransactionsTable> {
  const action = FULFILMENT_ACTIONS[entry.action];
  return {
    transaction_id: crypto.randomUUID(),
    action_type: action.code,
    action_type_label: action.label,
    brand_id: entry.trail.brandId ?? null,
    retailer_id: entry.trail.retailerId ?? null,
    facility_id: entry.trail.facilityId ?? null,
    order_id: entry.trail.orderId ?? null,
    carton_id: entry.trail.orderId ? (entry.ids.cartonId ?? null) : null,
    load_id: null,
    correlation_id: null,
    request_method: action.method,
    request_url: stepUrl(entry.action, entry.orderId, entry.ids),
    request_payload:
      entry.payload === undefined || entry.payload === null ? null : JSON.stringify(entry.payload),
    ...logRowOutcome(entry),
  };
}

/**
 * The FAILURE row of a refused step, in its own transaction (the step's rolled back). Best
 * effort: the client's error answer matters more than its log row.
 */
export async function recordStepFailure(
  ctx: ServiceContext,
  entry: Omit<StepLogEntry, 'status' | 'at'>,
) {
  try {
    await insertTransactionRow(
      ctx.db,
      stepLogRow({ ...entry, status: 'FAILURE', at: ctx.clock.now().toISOString() }),
    );
  } catch {
    // Nothing to add: the answer goes out as it is.
  }
}
