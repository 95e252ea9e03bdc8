import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  brandWorksAtFacility,
  findOrderCreatedAt,
  otherOrderWithPicksheet,
  replaceSeedOrder,
  type SeedOrderRows,
} from './seed-queries';
import type { Database } from '../db/schema';
import {
  SEED_ORDER_IDENTIFIER_FIELDS,
  SEED_ORDER_TIMESTAMP_FIELDS,
  type SeedOrder,
} from '../../shared/order-seed';
import { PACKING_SLIP_METRIC } from '../../shared/fulfilment-activity';
import { ORDER_DATE_FIELDS } from '../../shared/orders';
import { SeedError } from '../core/seed-support';
import { createItemRows, ORDER_TEXT_FIELDS } from './rows';

/**
 * A stable id for a row the bundle gives no id for (order lines, carton SKU lines), derived from
 * its parent's id and position, so a second import of the same bundle writes the same rows.
 */
export function derivedId(parentId: string, kind: string, index: number): string {
  const hex = createHash('sha256').update(`${parentId}|${kind}|${index}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const iso = (value: string | null | undefined) =>
  value === null || value === undefined ? null : new Date(value).toISOString();
const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);

/** The rows of one bundle order; `createdAt` is the time to use when the bundle names none. */
export function seedOrderRows(order: SeedOrder, createdAt: string, where = 'order'): SeedOrderRows {
  const created = iso(order.created_at) ?? createdAt;
  const row: SeedOrderRows['order'] = {
    id: order.id,
    brand_id: order.brand_id,
    retailer_id: order.retailer_id,
    facility_id: order.facility_id,
    picksheet_code: order.picksheet_code,
    status: order.status,
    created_at: created,
    updated_at: iso(order.updated_at) ?? created,
    ship_to_json: json(order.address_data?.ship_to_contact),
    bill_to_json: json(order.address_data?.bill_to_contact),
    mark_for_json: json(order.address_data?.mark_for_contact),
  };
  for (const field of ORDER_TEXT_FIELDS) row[field] = order[field] ?? null;
  for (const field of SEED_ORDER_IDENTIFIER_FIELDS) row[field] = order[field] ?? null;
  for (const field of ORDER_DATE_FIELDS) row[field] = order.dates?.[field] ?? null;
  for (const field of SEED_ORDER_TIMESTAMP_FIELDS) row[field] = iso(order[field]);

  const items = createItemRows(order.items).map((item, index) => ({
    ...item,
    id: derivedId(order.id, 'item', index),
    order_id: order.id,
  }));
  const pallets: SeedOrderRows['pallets'] = [];
  const cartons: SeedOrderRows['cartons'] = [];
  const cartonSkus: SeedOrderRows['cartonSkus'] = [];
  for (const { cartons: palletCartons, cartonQuantity: _derived, ...pallet } of order.pallets) {
    pallets.push({
      ...pallet,
      order_id: order.id,
      sscc: pallet.sscc ?? null,
      created_at: iso(pallet.created_at)!,
      staged_by: pallet.staged_by ?? null,
      staged_at: iso(pallet.staged_at),
      dim_unit: pallet.dim_unit ?? null,
      height: pallet.height ?? null,
      width: pallet.width ?? null,
      length: pallet.length ?? null,
      weight_unit: pallet.weight_unit ?? null,
      weight: pallet.weight ?? null,
    });
    for (const { skus, ...carton } of palletCartons) {
      cartons.push({
        ...carton,
        order_id: order.id,
        pallet_id: pallet.id,
        sscc: carton.sscc ?? null,
        created_at: iso(carton.created_at)!,
        packed_by: carton.packed_by ?? null,
        packing_complete_at: iso(carton.packing_complete_at),
        parcel_tracking_number: carton.parcel_tracking_number ?? null,
        dim_unit: carton.dim_unit ?? null,
        height: carton.height ?? null,
        width: carton.width ?? null,
        length: carton.length ?? null,
        weight_unit: carton.weight_unit ?? null,
        weight: carton.weight ?? null,
      });
      skus.forEach((sku, index) =>
        cartonSkus.push({
          id: derivedId(carton.id, 'sku', index),
          carton_id: carton.id,
          sku: sku.sku,
          upc: sku.upc ?? null,
          quantity: sku.quantity,
          serial_numbers_json: JSON.stringify(sku.serial_numbers),
        }),
      );
    }
  }
  return {
    order: row,
    items,
    pallets,
    cartons,
    cartonSkus,
    activity: activityRows(order, row, where),
  };
}

/**
 * The order's activity entries as rows: stable ids, the SSCC of the carton or pallet named (so
 * labels count as unique per SSCC), and `at` defaulting to the order's packed_at (else created_at).
 */
function activityRows(
  order: SeedOrder,
  row: SeedOrderRows['order'],
  where: string,
): SeedOrderRows['activity'] {
  const ssccs = {
    carton_id: new Map<string, string | null>(),
    pallet_id: new Map<string, string | null>(),
  };
  for (const pallet of order.pallets) {
    ssccs.pallet_id.set(pallet.id, pallet.sscc ?? null);
    for (const carton of pallet.cartons) ssccs.carton_id.set(carton.id, carton.sscc ?? null);
  }
  const fallback = row.packed_at ?? row.created_at;
  return order.activity.map((entry, index) => {
    const at = `${where}.activity[${index}]`;
    const cartonId = entry.kind === 'PACKING_SLIP' ? null : (entry.carton_id ?? null);
    const palletId = entry.kind === 'PACKING_SLIP' ? null : (entry.pallet_id ?? null);
    for (const [field, id] of [
      ['carton_id', cartonId],
      ['pallet_id', palletId],
    ] as const) {
      if (id !== null && !ssccs[field].has(id)) {
        throw new SeedError(
          `Invalid seed bundle at ${at}.${field}: '${id}' is not a ${field.slice(0, -3)} of this order`,
        );
      }
    }
    return {
      id: derivedId(order.id, 'activity', index),
      order_id: order.id,
      kind: entry.kind,
      action_type: entry.kind === 'ACTION' ? entry.action_type : null,
      metric: entry.kind === 'PACKING_SLIP' ? PACKING_SLIP_METRIC : entry.metric,
      count: entry.count,
      carton_id: cartonId,
      pallet_id: palletId,
      sscc:
        (cartonId && ssccs.carton_id.get(cartonId)) ??
        (palletId && ssccs.pallet_id.get(palletId)) ??
        null,
      user_id: null,
      created_at: iso(entry.at) ?? fallback,
    };
  });
}

/**
 * Imports the bundle's orders inside the seed import's transaction: each is upserted by id with
 * its lines, pallets, cartons and SKUs replaced by the bundle's. Brand, retailer and facility must
 * exist and the brand must work at the facility; a picksheet code names one order per facility.
 */
export async function importSeedOrders(
  trx: Kysely<Database>,
  orders: readonly SeedOrder[],
  requireRow: (
    table: 'brands' | 'retailers' | 'facilities',
    id: string,
    where: string,
  ) => Promise<void>,
  now: string,
) {
  for (const [i, order] of orders.entries()) {
    const where = `orders[${i}]`;
    await requireRow('brands', order.brand_id, `${where}.brand_id`);
    await requireRow('retailers', order.retailer_id, `${where}.retailer_id`);
    await requireRow('facilities', order.facility_id, `${where}.facility_id`);
    if (!(await brandWorksAtFacility(trx, order.brand_id, order.facility_id))) {
      throw new SeedError(
        `Invalid seed bundle at ${where}.facility_id: brand '${order.brand_id}' does not work at facility '${order.facility_id}'`,
      );
    }
    const holder = await otherOrderWithPicksheet(
      trx,
      order.id,
      order.facility_id,
      order.picksheet_code,
    );
    if (holder) {
      throw new SeedError(
        `Invalid seed bundle at ${where}.picksheet_code: '${order.picksheet_code}' is already order '${holder}' at this facility`,
      );
    }
    const rows = seedOrderRows(order, (await findOrderCreatedAt(trx, order.id)) ?? now, where);
    try {
      await replaceSeedOrder(trx, rows);
    } catch (error) {
      // A pallet or carton id of another order, or an SSCC used twice.
      const reason = error instanceof Error ? error.message : String(error);
      throw new SeedError(
        `Invalid seed bundle at ${where}: order '${order.id}' cannot be stored: ${reason}`,
      );
    }
  }
}
