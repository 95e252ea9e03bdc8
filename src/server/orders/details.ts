import type { Db } from '../db/db';
import { findOrderDocument, orderDataVersion, type OrderDocument } from './read-queries';
import {
  ORDER_DATE_FIELDS,
  ORDER_TIMESTAMP_FIELDS,
  type OrderDetails,
  type OrderItem,
  type Pallet,
} from '../../shared/orders';
import type { AuthUser, ServiceContext } from '../core/context';
import { notFound } from '../core/errors';
import { facilitiesOf } from '../access';

/**
 * Whether the user sees an order: it sees the order's facility (its cached facility list, the
 * same list the lookups answer from) and, for credentials acting for a brand, the order is that
 * brand's.
 */
export async function orderVisibleTo(
  ctx: ServiceContext,
  user: AuthUser,
  order: { facility_id: string; brand_id: string },
): Promise<boolean> {
  if (user.brandId !== null && order.brand_id !== user.brandId) return false;
  const facilities = await facilitiesOf(ctx, user);
  return facilities.some((facility) => facility.id === order.facility_id);
}

/** Endpoint 8: the order's details; another tenant's order answers exactly like an unknown one. */
export async function orderDetails(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
): Promise<OrderDetails> {
  const document = await findOrderDocument(ctx.db, orderId);
  if (!document || !(await orderVisibleTo(ctx, user, document.order))) {
    throw notFound('Order not found');
  }
  return detailsView(document);
}

/**
 * Serialized answers of endpoint 8 per order, for integrations that poll order details in tight
 * loops (issue 11). Every entry is tagged with the order data version read before the order was
 * loaded; any write to orders, their lines, pallets, cartons or SKU lines (or a brand, facility or
 * retailer name) moves the version and drops them all, so a stale answer is never served.
 * Visibility is checked on every request, against the user's current scope.
 */
interface CachedDetails {
  facility_id: string;
  brand_id: string;
  json: string;
}
/** Past this many characters of answers the cache starts over (10,000 orders are ~50 MB). */
const MAX_CACHED_CHARS = 64 * 1024 * 1024;
const detailCaches = new WeakMap<
  Db,
  { version: number; chars: number; entries: Map<string, CachedDetails> }
>();

async function cachedDetails(db: Db, orderId: string): Promise<CachedDetails | undefined> {
  const version = await orderDataVersion(db);
  if (version === null) return uncachedDetails(db, orderId);
  let cache = detailCaches.get(db);
  const hit = cache?.version === version ? cache.entries.get(orderId) : undefined;
  if (hit) return hit;
  const entry = await uncachedDetails(db, orderId);
  if (!entry) return undefined;
  cache = detailCaches.get(db);
  if (!cache || cache.version !== version || cache.chars + entry.json.length > MAX_CACHED_CHARS) {
    cache = { version, chars: 0, entries: new Map() };
    detailCaches.set(db, cache);
  }
  cache.entries.set(orderId, entry);
  cache.chars += entry.json.length;
  return entry;
}

async function uncachedDetails(db: Db, orderId: string): Promise<CachedDetails | undefined> {
  const document = await findOrderDocument(db, orderId);
  if (!document) return undefined;
  return {
    facility_id: document.order.facility_id,
    brand_id: document.order.brand_id,
    json: JSON.stringify(detailsView(document)),
  };
}

/**
 * Endpoint 8 as the route sends it: the `data` of the answer, serialized. Same rules as
 * `orderDetails`; served from the cache above while no order data changed.
 */
export async function orderDetailsJson(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
): Promise<string> {
  const details = await cachedDetails(ctx.db, orderId);
  if (!details || !(await orderVisibleTo(ctx, user, details))) throw notFound('Order not found');
  return details.json;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** A date and time without a zone (the bill of lading's `YYYY-MM-DD HH:mm:ss`): read as UTC. */
const ZONELESS_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?$/;
const ISO_UTC_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A stored time as ISO 8601 UTC. Dates of the create body (`YYYY-MM-DD`) are that calendar day at
 * midnight UTC; `dates` in the details keeps them as written.
 */
export function isoUtc(value: string | null): string | null {
  if (value === null || ISO_UTC_MILLIS.test(value)) return value;
  if (DATE_ONLY.test(value)) return `${value}T00:00:00.000Z`;
  const zoneless = ZONELESS_DATE_TIME.exec(value);
  const time = Date.parse(zoneless ? `${zoneless[1]}T${zoneless[2]}${zoneless[3] ?? ''}Z` : value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

/** The stored pallets with their times in ISO 8601 UTC and `cartonQuantity` counted. */
export function palletsView(pallets: OrderDocument['pallets']): Pallet[] {
  return pallets.map(({ cartons, ...pallet }) => ({
    ...pallet,
    created_at: isoUtc(pallet.created_at)!,
    staged_at: isoUtc(pallet.staged_at),
    cartonQuantity: cartons.length,
    cartons: cartons.map((carton) => ({
      ...carton,
      created_at: isoUtc(carton.created_at)!,
      packing_complete_at: isoUtc(carton.packing_complete_at),
    })),
  }));
}

type Timestamps = Pick<OrderDetails, (typeof ORDER_TIMESTAMP_FIELDS)[number]>;
type Dates = OrderDetails['dates'];

function detailsView({ order, times, address, items, pallets }: OrderDocument): OrderDetails {
  const timestamps = {} as Timestamps;
  for (const field of ORDER_TIMESTAMP_FIELDS) timestamps[field] = isoUtc(times[field]);
  const dates = {} as Dates;
  for (const field of ORDER_DATE_FIELDS) dates[field] = times[field];
  return {
    identifiers: {
      id: order.id,
      picksheet_code: order.picksheet_code,
      external_order_id: order.external_order_id,
      po_number: order.po_number,
      retailer_id: order.retailer_id,
      brand: {
        external_brand_code: order.external_brand_code,
        brand_id: order.brand_id,
        name: order.brand_name,
      },
      facility: {
        external_facility_code: order.external_facility_code,
        id: order.facility_id,
        name: order.facility_name,
      },
      retailer: { retailer_id: order.retailer_id, name: order.retailer_name },
      transportation_method: order.transportation_method,
      bill_of_lading_number: order.bill_of_lading_number,
      pro_number: order.pro_number,
      carrier: order.carrier,
      service_method: order.service_method,
      parcel_account_number: order.parcel_account_number,
      parcel_billing_type: order.parcel_billing_type,
      carrier_alpha_code: order.carrier_alpha_code,
      external_load_number: order.external_load_number,
      dept_number: order.dept_number,
      purchase_order_type: order.purchase_order_type,
    },
    status: order.status,
    ...timestamps,
    shipped_at: isoUtc(times.shipped_at),
    cancelled_at: isoUtc(times.cancelled_at),
    pallets: palletsView(pallets),
    items: items as OrderItem[],
    address_data: address as OrderDetails['address_data'],
    dates,
  };
}
