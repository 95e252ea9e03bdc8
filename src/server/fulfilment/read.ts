import {
  findBrandForSscc,
  listCartons,
  listCartonSkus,
  listOrderActivity,
  listPallets,
  packedUnitsBySku,
} from './queries';
import { findOrderForUser, listOrderItems } from '../orders';
import type { FulfilmentView } from '../../shared/fulfilment';
import type { AuthUser, ServiceContext } from '../core/context';
import { notFound } from '../core/errors';
import { isoUtc } from '../orders';
import { ORDER_NOT_FOUND } from '../orders';
import { blockersOfNextStep, needsPallets, nextStep } from './rules';
import { cartonViews, lineViews, palletViews } from './views';

/**
 * GET /api/v1/orders/{order_id}/fulfilment: what the packing screen shows after every scan. Read
 * in one transaction so the lines, cartons and pallets agree with each other.
 */
export function fulfilmentView(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
): Promise<FulfilmentView> {
  return ctx.db.transaction().execute(async (trx) => {
    const order = await findOrderForUser(trx, user, orderId);
    if (!order) throw notFound(ORDER_NOT_FOUND);
    const [brand, items, packed, cartons, skus, pallets, activity] = await Promise.all([
      findBrandForSscc(trx, order.brand_id),
      listOrderItems(trx, order.id),
      packedUnitsBySku(trx, order.id),
      listCartons(trx, order.id),
      listCartonSkus(trx, order.id),
      listPallets(trx, order.id),
      listOrderActivity(trx, order.id),
    ]);
    const lines = lineViews(items, packed);
    const cartonList = cartonViews(cartons, skus);
    const orderedUnits = lines.reduce((total, line) => total + line.ordered_quantity, 0);
    const packedUnits = [...packed.values()].reduce((total, units) => total + units, 0);
    const shortUnits = lines.reduce((total, line) => total + line.remaining_quantity, 0);
    return {
      order_id: order.id,
      picksheet_code: order.picksheet_code,
      po_number: order.po_number,
      status: order.status,
      transportation_method: order.transportation_method,
      needs_pallets: needsPallets(order),
      bill_of_lading_number: order.bill_of_lading_number,
      brand: {
        brand_id: order.brand_id,
        name: brand?.name ?? '',
        gs1_company_prefix: brand?.gs1_company_prefix ?? null,
      },
      started_at: isoUtc(order.started_at),
      packed_at: isoUtc(order.packed_at),
      staged_at: isoUtc(order.staged_at),
      loaded_at: isoUtc(order.loaded_at),
      shipped_at: isoUtc(order.shipped_at),
      asn_sent_at: isoUtc(order.asn_sent_at),
      cancelled_at: isoUtc(order.cancelled_at),
      lines,
      totals: {
        ordered_units: orderedUnits,
        packed_units: packedUnits,
        cartons: cartons.length,
        pallets: pallets.length,
        cartons_not_on_pallet: cartons.filter((c) => c.pallet_id === null).length,
      },
      open_carton: cartonList.find((c) => c.packing_complete_at === null) ?? null,
      cartons: cartonList,
      pallets: palletViews(pallets, cartons),
      next_step: nextStep(order.status),
      missing: blockersOfNextStep({
        order,
        cartons,
        pallets,
        // Short units per line, so an over-packed SKU does not hide another's shortfall.
        orderedUnits: packedUnits + shortUnits,
        packedUnits,
      }),
      activity: activity.map((entry) => ({ ...entry, created_at: isoUtc(entry.created_at)! })),
    };
  });
}
