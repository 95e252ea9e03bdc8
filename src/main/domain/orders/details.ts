import {
  findOrderWithCodes,
  listOrderItems,
  listPalletTree,
  type OrderItemRow,
  type OrderWithCodes,
  type PalletTreeRow,
} from '../../db/order-reads';
import {
  ORDER_DATE_FIELDS,
  ORDER_TIMESTAMP_FIELDS,
  type Carton,
  type OrderDetails,
  type OrderItem,
  type Pallet,
} from '../../../shared/orders';
import type { AuthUser, ServiceContext } from '../context';
import { notFound } from '../errors';
import { facilitiesOf } from '../lookups';

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
  const order = await findOrderWithCodes(ctx.db, orderId);
  if (!order || !(await orderVisibleTo(ctx, user, order))) throw notFound('Order not found');
  const [items, tree] = await Promise.all([
    listOrderItems(ctx.db, orderId),
    listPalletTree(ctx.db, orderId),
  ]);
  return detailsView(order, items, tree);
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

function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

function itemView(row: OrderItemRow): OrderItem {
  return {
    sku: row.sku,
    upc: row.upc,
    quantity: row.quantity,
    case_pack_quantity: row.case_pack_quantity,
    case_barcode: row.case_barcode,
    vendor_pn: row.vendor_pn,
    description: row.description,
    trackers: parseJson(row.trackers_json),
    pass_through: parseJson(row.pass_through_json),
  };
}

/** Folds the flattened pallet → carton → SKU rows (grouped by pallet, then carton) into the tree. */
export function palletTree(rows: readonly PalletTreeRow[]): Pallet[] {
  const pallets: Pallet[] = [];
  let pallet: Pallet | undefined;
  let carton: Carton | undefined;
  for (const row of rows) {
    if (pallet?.id !== row.pallet_id) {
      pallet = {
        id: row.pallet_id,
        created_at: isoUtc(row.pallet_created_at)!,
        staged_by: row.pallet_staged_by,
        staged_at: isoUtc(row.pallet_staged_at),
        sscc: row.pallet_sscc,
        status: row.pallet_status,
        cartonQuantity: 0,
        dim_unit: row.pallet_dim_unit,
        height: row.pallet_height,
        width: row.pallet_width,
        length: row.pallet_length,
        weight_unit: row.pallet_weight_unit,
        weight: row.pallet_weight,
        cartons: [],
      };
      pallets.push(pallet);
      carton = undefined;
    }
    if (row.carton_id === null) continue;
    if (carton?.id !== row.carton_id) {
      carton = {
        id: row.carton_id,
        sscc: row.carton_sscc,
        created_at: isoUtc(row.carton_created_at)!,
        packed_by: row.carton_packed_by,
        packing_complete_at: isoUtc(row.carton_packing_complete_at),
        parcel_tracking_number: row.carton_parcel_tracking_number,
        dim_unit: row.carton_dim_unit,
        height: row.carton_height,
        width: row.carton_width,
        length: row.carton_length,
        weight_unit: row.carton_weight_unit,
        weight: row.carton_weight,
        skus: [],
      };
      pallet.cartons.push(carton);
      pallet.cartonQuantity += 1;
    }
    if (row.sku === null) continue;
    carton.skus.push({
      sku: row.sku,
      upc: row.upc,
      serial_numbers: parseJson<string[]>(row.serial_numbers_json) ?? [],
      quantity: row.quantity ?? 0,
    });
  }
  return pallets;
}

type Timestamps = Pick<OrderDetails, (typeof ORDER_TIMESTAMP_FIELDS)[number]>;
type Dates = OrderDetails['dates'];

function detailsView(
  order: OrderWithCodes,
  items: readonly OrderItemRow[],
  tree: readonly PalletTreeRow[],
): OrderDetails {
  const timestamps = {} as Timestamps;
  for (const field of ORDER_TIMESTAMP_FIELDS) timestamps[field] = isoUtc(order[field]);
  const dates = {} as Dates;
  for (const field of ORDER_DATE_FIELDS) dates[field] = order[field];
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
    shipped_at: isoUtc(order.shipped_at),
    cancelled_at: isoUtc(order.cancelled_at),
    pallets: palletTree(tree),
    items: items.map(itemView),
    address_data: {
      ship_to_contact: parseJson(order.ship_to_json),
      bill_to_contact: parseJson(order.bill_to_json),
      mark_for_contact: parseJson(order.mark_for_json),
    },
    dates,
  };
}
