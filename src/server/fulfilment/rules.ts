import type { CartonRow, PalletRow } from './queries';
import type { OrderRow } from '../orders';
import type { FulfilmentStep } from '../../shared/fulfilment';
import type { OrderStatus } from '../../shared/orders';
import { shipToProblem } from '../../shared/ship-to';
import { conflict } from '../core/errors';
import { plural } from './views';

/**
 * Which status each step needs (DESIGN.md, Fulfilment: Open → Picking → Packed → Staged → Loaded
 * → Shipped, or Cancelled before shipping), and what else must hold before the next step.
 */
export const STEP_STATUSES = {
  'start picking': ['Open'],
  // A Packed order takes no more units until packing is reopened (see packing.ts).
  'packing a carton': ['Open', 'Picking'],
  'closing a carton': ['Picking', 'Packed'],
  'unpacking a carton': ['Picking', 'Packed'],
  'completing packing': ['Picking'],
  'reopening packing': ['Packed'],
  palletising: ['Picking', 'Packed'],
  staging: ['Packed'],
  loading: ['Staged'],
  shipping: ['Loaded'],
  cancelling: ['Open', 'Picking', 'Packed', 'Staged', 'Loaded'],
} as const satisfies Record<string, readonly OrderStatus[]>;
export type StepName = keyof typeof STEP_STATUSES;

/** A status as a clerk says it ("this order is being picked"). */
const STATUS_WORDS: Record<OrderStatus, string> = {
  Open: 'open',
  Picking: 'being picked',
  Packed: 'packed',
  Staged: 'staged',
  Loaded: 'loaded',
  Shipped: 'shipped',
  Cancelled: 'cancelled',
};

/** What each step does, as a clerk says it. */
const STEP_WORDS: Record<StepName, string> = {
  'start picking': 'Picking can start',
  'packing a carton': 'Items can be packed',
  'closing a carton': 'A carton can be closed',
  'unpacking a carton': 'A carton can be unpacked',
  'completing packing': 'Packing can be completed',
  'reopening packing': 'Packing can be reopened',
  palletising: 'Pallets can be changed',
  staging: 'It can be staged',
  loading: 'It can be loaded',
  shipping: 'It can be shipped',
  cancelling: 'It can be cancelled',
};

/**
 * Refuses (409) an order whose status the step does not take, in a clerk's words ("This order is
 * loaded. Pallets can be changed only while it is being picked or packed."); `details` keeps the
 * terse form with the status names for integrators and logs.
 */
export function requireStatus(order: Pick<OrderRow, 'status'>, step: StepName) {
  const allowed: readonly OrderStatus[] = STEP_STATUSES[step];
  if (!allowed.includes(order.status)) {
    throw conflict(
      `This order is ${STATUS_WORDS[order.status]}. ${STEP_WORDS[step]} only while it is ${orList(allowed.map((status) => STATUS_WORDS[status]))}.`,
      {
        status: order.status,
        details: `Order is ${order.status}; ${step} needs ${orList(allowed)}`,
      },
    );
  }
}

const orList = (items: readonly string[]) =>
  items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

/** Parcel orders go out as loose cartons; every other order (FREIGHT or none named) on pallets. */
export const needsPallets = (order: Pick<OrderRow, 'transportation_method'>) =>
  order.transportation_method?.toUpperCase() !== 'PARCEL';

export interface PackingState {
  order: OrderRow;
  cartons: readonly CartonRow[];
  pallets: readonly PalletRow[];
  orderedUnits: number;
  packedUnits: number;
}

/** The step that moves the order forward from its status. */
export function nextStep(status: OrderStatus): FulfilmentStep | null {
  switch (status) {
    case 'Open':
      return 'start_picking';
    case 'Picking':
      return 'complete_packing';
    case 'Packed':
      return 'stage';
    case 'Staged':
      return 'load';
    case 'Loaded':
      return 'ship';
    default:
      return null;
  }
}

/** What stops completing packing, in words (a short pack alone stops it unless allowed). */
export function packingBlockers(state: PackingState, allowShort: boolean): string[] {
  const missing: string[] = [];
  if (state.packedUnits === 0) missing.push('nothing is packed yet');
  const open = state.cartons.filter((c) => c.packing_complete_at === null).length;
  if (open > 0) missing.push(`${plural(open, 'carton')} still open`);
  const short = state.orderedUnits - state.packedUnits;
  if (!allowShort && state.packedUnits > 0 && short > 0) {
    missing.push(
      `${plural(short, 'ordered unit')} not packed (complete with allow_short to ship short)`,
    );
  }
  return missing;
}

/** What stops staging: open cartons, no cartons, and for pallet orders loose cartons or empty pallets. */
export function stagingBlockers(state: PackingState): string[] {
  const missing: string[] = [];
  if (state.cartons.length === 0) missing.push('no cartons');
  const open = state.cartons.filter((c) => c.packing_complete_at === null).length;
  if (open > 0) missing.push(`${plural(open, 'carton')} still open`);
  const loose = state.cartons.filter((c) => c.pallet_id === null).length;
  if (needsPallets(state.order) && loose > 0)
    missing.push(`${plural(loose, 'carton')} not on a pallet`);
  const used = new Set(state.cartons.map((c) => c.pallet_id));
  const empty = state.pallets.filter((p) => !used.has(p.id)).length;
  if (empty > 0) missing.push(`${plural(empty, 'pallet')} without cartons`);
  return missing;
}

/** What stops shipping: a complete ship-to address, and for a pallet order its bill of lading. */
export function shippingBlockers(order: OrderRow): string[] {
  const missing: string[] = [];
  const shipTo = shipToProblem(shipToContactOf(order));
  if (shipTo) missing.push(shipTo);
  if (needsPallets(order) && !order.bill_of_lading_number) missing.push('no bill of lading');
  return missing;
}

/** The stored ship-to contact; a value that is not a JSON object counts as none. */
function shipToContactOf(order: Pick<OrderRow, 'ship_to_json'>): Record<string, unknown> | null {
  if (!order.ship_to_json) return null;
  try {
    const value: unknown = JSON.parse(order.ship_to_json);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** What stops the next step now (empty when it can be taken). */
export function blockersOfNextStep(state: PackingState): string[] {
  switch (state.order.status) {
    case 'Picking':
      return packingBlockers(state, false);
    case 'Packed':
      return stagingBlockers(state);
    case 'Loaded':
      return shippingBlockers(state.order);
    default:
      return [];
  }
}

/** Refuses (409) a step something is missing for, saying what. */
export function refuseIfMissing(what: string, missing: readonly string[]) {
  if (missing.length > 0) throw conflict(`Cannot ${what}: ${missing.join('; ')}`, { missing });
}
