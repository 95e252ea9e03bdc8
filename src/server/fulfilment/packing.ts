import { randomUUID } from 'node:crypto';
import { insertActivity } from '../orders';
import {
  countCartonUnits,
  deleteCarton,
  deleteCartonPackAction,
  findCarton,
  findCartonSku,
  findOpenCarton,
  insertCarton,
  insertCartonSku,
  listCartons,
  listSkusOfCarton,
  listPallets,
  packedUnitsBySku,
  updateCarton,
  updateCartonSku,
  type CartonRow,
} from './queries';
import { listOrderItems, updateOrderColumns, type OrderItemRow } from '../orders';
import {
  PACKING_COMPLETE,
  type CloseCartonBody,
  type CompletePackingBody,
  type OpenCartonBody,
  type PackCartonBody,
  type ScanUnitBody,
  type StepResult,
} from '../../shared/fulfilment';
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict, invalidRequest, notFound } from '../core/errors';
import { requireOpenPallet } from './pallets';
import { packingBlockers, refuseIfMissing, requireStatus } from './rules';
import { allocateSscc } from './sscc';
import { runStep, type StepScope, type StepTrail } from './step';
import { cartonView, orderedUnitsBySku } from './views';

export const CARTON_NOT_FOUND = 'Carton not found';

/**
 * Packing: a whole carton at once, or an open carton filled by scans and then closed. Packing an
 * Open order starts picking (the first carton is proof that picking began). A packed carton records
 * one `Carton Workflow` / `Pack` action (billing prices it); unpacking removes that action again.
 */

/**
 * Packing is allowed while the order is Open (which starts picking) or Picking. A Packed order
 * refuses more units until packing is reopened: a stray scan must not add a carton to an order the
 * clerk finished (a short one included).
 */
async function beginPacking({ trx, order, at }: StepScope) {
  if (order.status === 'Packed') {
    throw conflict(PACKING_COMPLETE, {
      status: order.status,
      details: 'Reopen packing (POST …/reopen-packing) to pack more',
    });
  }
  requireStatus(order, 'packing a carton');
  if (order.status === 'Open') {
    await updateOrderColumns(trx, order.id, { status: 'Picking', started_at: at, updated_at: at });
    order.status = 'Picking';
    order.started_at = at;
  } else {
    await updateOrderColumns(trx, order.id, { updated_at: at });
  }
}

/** Refuses units beyond the ordered quantity of a SKU (over all cartons) unless allowed. */
async function refuseOverShip(
  { trx, order }: StepScope,
  items: readonly OrderItemRow[],
  adding: ReadonlyMap<string, number>,
  allowOverShip: boolean,
) {
  if (allowOverShip) return;
  const ordered = orderedUnitsBySku(items);
  const packed = await packedUnitsBySku(trx, order.id);
  const over = [...adding]
    .map(([sku, units]) => ({
      sku,
      total: (packed.get(sku) ?? 0) + units,
      of: ordered.get(sku) ?? 0,
    }))
    .filter(({ total, of }) => total > of)
    .map(({ sku, total, of }) => `${sku} would be ${total} of ${of} ordered`);
  if (over.length > 0) {
    throw conflict(
      `Cannot pack more than ordered: ${over.join('; ')}. Only the ordered quantity can be packed.`,
      { missing: over, details: 'allow_over_ship: true packs more than ordered' },
    );
  }
}

async function recordPackAction(
  { trx, order, user, at }: StepScope,
  carton: Pick<CartonRow, 'id' | 'sscc'>,
) {
  await insertActivity(trx, [
    {
      id: randomUUID(),
      order_id: order.id,
      kind: 'ACTION',
      action_type: 'Carton Workflow',
      metric: 'Pack',
      count: 1,
      carton_id: carton.id,
      pallet_id: null,
      sscc: carton.sscc,
      user_id: user.id,
      created_at: at,
    },
  ]);
}

async function cartonResult({ trx, order }: StepScope, cartonId: string): Promise<StepResult> {
  const carton = await findCarton(trx, order.id, cartonId);
  if (!carton) throw new Error(`cartonResult: carton ${cartonId} vanished`);
  const skus = await listSkusOfCarton(trx, cartonId);
  return { order_id: order.id, status: order.status, carton: cartonView(carton, skus) };
}

const factColumns = (body: OpenCartonBody) => {
  const columns: Partial<CartonRow> = {};
  for (const key of [
    'dim_unit',
    'height',
    'width',
    'length',
    'weight_unit',
    'weight',
    'parcel_tracking_number',
  ] as const) {
    if (body[key] !== undefined) (columns as Record<string, unknown>)[key] = body[key];
  }
  return columns;
};

async function newCarton(
  scope: StepScope,
  body: OpenCartonBody,
  closed: boolean,
  palletId: string | null,
) {
  const carton = {
    id: randomUUID(),
    order_id: scope.order.id,
    pallet_id: palletId,
    sscc: await allocateSscc(scope.trx, scope.order.brand_id, 'carton'),
    created_at: scope.at,
    packed_by: scope.user.email,
    packing_complete_at: closed ? scope.at : null,
    parcel_tracking_number: null,
    dim_unit: null,
    height: null,
    width: null,
    length: null,
    weight_unit: null,
    weight: null,
    ...factColumns(body),
  };
  return carton;
}

/** POST …/cartons: a whole carton with its SKUs, closed at once. */
export function packCarton(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  body: PackCartonBody,
  trail?: StepTrail,
) {
  return runStep(
    ctx,
    user,
    { action: 'packCarton', orderId, payload: body, trail },
    async (scope) => {
      await beginPacking(scope);
      const items = await listOrderItems(scope.trx, scope.order.id);
      const lineOf = new Map<string, OrderItemRow>();
      for (const item of items) if (!lineOf.has(item.sku)) lineOf.set(item.sku, item);
      const unknown = body.skus.filter((s) => !lineOf.has(s.sku)).map((s) => s.sku);
      if (unknown.length > 0) {
        throw invalidRequest(`Not on this order: ${unknown.join(', ')}`, {
          details: 'every SKU must be one of the order lines',
        });
      }
      await refuseOverShip(
        scope,
        items,
        new Map(body.skus.map((s) => [s.sku, s.quantity])),
        body.allow_over_ship,
      );
      const palletId = body.pallet_id ?? null;
      if (palletId) await requireOpenPallet(scope, palletId);
      const carton = await newCarton(scope, body, true, palletId);
      await insertCarton(
        scope.trx,
        carton,
        body.skus.map((line) => ({
          id: randomUUID(),
          carton_id: carton.id,
          sku: line.sku,
          upc: lineOf.get(line.sku)!.upc,
          quantity: line.quantity,
          serial_numbers_json: JSON.stringify(line.serial_numbers),
        })),
      );
      await recordPackAction(scope, carton);
      return cartonResult(scope, carton.id);
    },
  );
}

/** POST …/cartons/open: an empty carton for scans; one open carton per order at a time. */
export function openCarton(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  body: OpenCartonBody,
  trail?: StepTrail,
) {
  return runStep(
    ctx,
    user,
    { action: 'openCarton', orderId, payload: body, trail },
    async (scope) => {
      await beginPacking(scope);
      const open = await findOpenCarton(scope.trx, scope.order.id);
      if (open) throw conflict(`Carton ${open.sscc ?? open.id} is already open; close it first`);
      const carton = await newCarton(scope, body, false, null);
      await insertCarton(scope.trx, carton, []);
      return cartonResult(scope, carton.id);
    },
  );
}

/** The order line a scanned code names: its SKU, else its UPC (one unit), else its case barcode (a case). */
function lineOfScan(items: readonly OrderItemRow[], code: string) {
  const bySku = items.find((item) => item.sku === code) ?? items.find((item) => item.upc === code);
  if (bySku) return { line: bySku, units: 1 };
  const byCase = items.find((item) => item.case_barcode === code);
  if (byCase) return { line: byCase, units: byCase.case_pack_quantity ?? 1 };
  return undefined;
}

/** POST …/scan: one scanned unit (or case) into the open carton, opening one when none is. */
export function scanUnit(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  body: ScanUnitBody,
  trail?: StepTrail,
) {
  return runStep(
    ctx,
    user,
    { action: 'scanUnit', orderId, payload: body, trail },
    async (scope) => {
      await beginPacking(scope);
      const items = await listOrderItems(scope.trx, scope.order.id);
      const match = lineOfScan(items, body.code);
      if (!match)
        throw invalidRequest(`${body.code} is not a SKU, UPC or case barcode of this order`);
      const { line, units } = match;
      const serial = body.serial_number ?? null;
      if (serial !== null && units !== 1) {
        throw invalidRequest('A serial number goes with one unit; scan the unit, not its case');
      }
      await refuseOverShip(scope, items, new Map([[line.sku, units]]), body.allow_over_ship);
      let carton: Pick<CartonRow, 'id'> | undefined = await findOpenCarton(
        scope.trx,
        scope.order.id,
      );
      if (!carton) {
        const opened = await newCarton(scope, {}, false, null);
        await insertCarton(scope.trx, opened, []);
        carton = opened;
      }
      const current = await findCartonSku(scope.trx, carton.id, line.sku);
      if (current) {
        const serials = JSON.parse(current.serial_numbers_json) as string[];
        if (serial !== null && serials.includes(serial)) {
          throw conflict(`Serial number ${serial} is already in this carton`);
        }
        await updateCartonSku(scope.trx, current.id, {
          quantity: current.quantity + units,
          serial_numbers_json:
            serial === null ? current.serial_numbers_json : JSON.stringify([...serials, serial]),
        });
      } else {
        await insertCartonSku(scope.trx, {
          id: randomUUID(),
          carton_id: carton.id,
          sku: line.sku,
          upc: line.upc,
          quantity: units,
          serial_numbers_json: JSON.stringify(serial === null ? [] : [serial]),
        });
      }
      return cartonResult(scope, carton.id);
    },
  );
}

async function cartonOf({ trx, order }: StepScope, cartonId: string) {
  const carton = await findCarton(trx, order.id, cartonId);
  if (!carton) throw notFound(CARTON_NOT_FOUND);
  return carton;
}

/** POST …/cartons/{carton_id}/close: the open carton is done (measures may be given now). */
export function closeCarton(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  cartonId: string,
  body: CloseCartonBody,
  trail?: StepTrail,
) {
  return runStep(
    ctx,
    user,
    { action: 'closeCarton', orderId, ids: { cartonId }, payload: body, trail },
    async (scope) => {
      requireStatus(scope.order, 'closing a carton');
      const carton = await cartonOf(scope, cartonId);
      const name = carton.sscc ?? carton.id;
      if (carton.packing_complete_at !== null) throw conflict(`Carton ${name} is already closed`);
      if ((await countCartonUnits(scope.trx, carton.id)) === 0) {
        throw conflict(`Carton ${name} is empty; unpack it instead`);
      }
      await updateCarton(scope.trx, carton.id, {
        ...factColumns(body),
        packing_complete_at: scope.at,
      });
      await updateOrderColumns(scope.trx, scope.order.id, { updated_at: scope.at });
      await recordPackAction(scope, carton);
      return cartonResult(scope, carton.id);
    },
  );
}

/** DELETE …/cartons/{carton_id}: the carton is unpacked (gone, with its Pack action); before staging only. */
export function unpackCarton(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  cartonId: string,
  trail?: StepTrail,
) {
  return runStep(
    ctx,
    user,
    { action: 'unpackCarton', orderId, ids: { cartonId }, trail },
    async (scope) => {
      requireStatus(scope.order, 'unpacking a carton');
      const carton = await cartonOf(scope, cartonId);
      await deleteCarton(scope.trx, carton.id);
      await deleteCartonPackAction(scope.trx, carton.id);
      await updateOrderColumns(scope.trx, scope.order.id, { updated_at: scope.at });
      return { order_id: scope.order.id, status: scope.order.status };
    },
  );
}

/**
 * POST …/complete-packing: Picking → Packed (packed_at). Refused while nothing is packed or a
 * carton is open, and when ordered units are left unless `allow_short` (a short shipment).
 */
export function completePacking(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  body: CompletePackingBody,
  trail?: StepTrail,
) {
  return runStep(
    ctx,
    user,
    { action: 'completePacking', orderId, payload: body, trail },
    async (scope) => {
      const { trx, order, at } = scope;
      requireStatus(order, 'completing packing');
      const [items, packed, cartons, pallets] = await Promise.all([
        listOrderItems(trx, order.id),
        packedUnitsBySku(trx, order.id),
        listCartons(trx, order.id),
        listPallets(trx, order.id),
      ]);
      const ordered = orderedUnitsBySku(items);
      // Short units per SKU; an over-shipped SKU does not make up for another's shortfall.
      let short = 0;
      for (const [sku, units] of ordered) short += Math.max(0, units - (packed.get(sku) ?? 0));
      const packedUnits = [...packed.values()].reduce((a, b) => a + b, 0);
      const missing = packingBlockers(
        { order, cartons, pallets, orderedUnits: packedUnits + short, packedUnits },
        body.allow_short,
      );
      refuseIfMissing('complete packing', missing);
      // A repack after a reopen keeps the first completion: the bill counts the work once, in the
      // period it was first packed (decisions.md, Fulfilment steps).
      await updateOrderColumns(trx, order.id, {
        status: 'Packed',
        packed_at: order.packed_at ?? at,
        updated_at: at,
      });
      return { order_id: order.id, status: 'Packed' as const };
    },
  );
}

/**
 * POST …/reopen-packing: Packed → Picking (packed_at kept: the first completion), so more can be packed after
 * "Complete packing" (a short order whose units turned up, a damaged carton repacked). Complete
 * packing again when done.
 */
export function reopenPacking(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  trail?: StepTrail,
) {
  return runStep(ctx, user, { action: 'reopenPacking', orderId, trail }, async (scope) => {
    const { trx, order, at } = scope;
    requireStatus(order, 'reopening packing');
    await updateOrderColumns(trx, order.id, { status: 'Picking', updated_at: at });
    return { order_id: order.id, status: 'Picking' as const };
  });
}
