import type { CartonRow, CartonSkuRow, PalletRow } from './queries';
import type { OrderItemRow } from '../orders';
import type { FulfilmentCarton, FulfilmentLine, FulfilmentPallet } from '../../shared/fulfilment';
import { isoUtc } from '../orders';

/** Cartons, pallets and lines as the packing screen and the step answers show them. */

export function cartonView(carton: CartonRow, skus: readonly CartonSkuRow[]): FulfilmentCarton {
  const lines = skus.map((s) => ({
    sku: s.sku,
    upc: s.upc,
    quantity: s.quantity,
    serial_numbers: JSON.parse(s.serial_numbers_json) as string[],
  }));
  return {
    id: carton.id,
    sscc: carton.sscc,
    pallet_id: carton.pallet_id,
    created_at: isoUtc(carton.created_at)!,
    packed_by: carton.packed_by,
    packing_complete_at: isoUtc(carton.packing_complete_at),
    parcel_tracking_number: carton.parcel_tracking_number,
    dim_unit: carton.dim_unit,
    height: carton.height,
    width: carton.width,
    length: carton.length,
    weight_unit: carton.weight_unit,
    weight: carton.weight,
    units: lines.reduce((total, line) => total + line.quantity, 0),
    skus: lines,
  };
}

export function palletView(pallet: PalletRow, cartonIds: string[]): FulfilmentPallet {
  return {
    id: pallet.id,
    sscc: pallet.sscc,
    status: pallet.status,
    created_at: isoUtc(pallet.created_at)!,
    staged_by: pallet.staged_by,
    staged_at: isoUtc(pallet.staged_at),
    dim_unit: pallet.dim_unit,
    height: pallet.height,
    width: pallet.width,
    length: pallet.length,
    weight_unit: pallet.weight_unit,
    weight: pallet.weight,
    carton_ids: cartonIds,
  };
}

/** Every carton with its SKU lines, in packing order. */
export function cartonViews(cartons: readonly CartonRow[], skus: readonly CartonSkuRow[]) {
  const byCarton = new Map<string, CartonSkuRow[]>();
  for (const line of skus) {
    const list = byCarton.get(line.carton_id);
    if (list) list.push(line);
    else byCarton.set(line.carton_id, [line]);
  }
  return cartons.map((carton) => cartonView(carton, byCarton.get(carton.id) ?? []));
}

export function palletViews(pallets: readonly PalletRow[], cartons: readonly CartonRow[]) {
  return pallets.map((pallet) =>
    palletView(
      pallet,
      cartons.filter((c) => c.pallet_id === pallet.id).map((c) => c.id),
    ),
  );
}

/**
 * Order lines with ordered and packed units. A SKU on several lines fills them in line order,
 * and any excess (an over-shipment) shows on its last line.
 */
export function lineViews(
  items: readonly OrderItemRow[],
  packedBySku: ReadonlyMap<string, number>,
): FulfilmentLine[] {
  const left = new Map(packedBySku);
  const lastLineOf = new Map(items.map((item) => [item.sku, item.line_number]));
  return items.map((item) => {
    const available = left.get(item.sku) ?? 0;
    const isLast = lastLineOf.get(item.sku) === item.line_number;
    const packed = isLast ? available : Math.min(available, item.quantity);
    left.set(item.sku, available - packed);
    return {
      line_number: item.line_number,
      sku: item.sku,
      upc: item.upc,
      case_barcode: item.case_barcode,
      case_pack_quantity: item.case_pack_quantity,
      description: item.description,
      ordered_quantity: item.quantity,
      packed_quantity: packed,
      remaining_quantity: Math.max(0, item.quantity - packed),
    };
  });
}

/** Units ordered per SKU (a SKU may be on several lines). */
export function orderedUnitsBySku(items: readonly OrderItemRow[]): Map<string, number> {
  const ordered = new Map<string, number>();
  for (const item of items) ordered.set(item.sku, (ordered.get(item.sku) ?? 0) + item.quantity);
  return ordered;
}

export const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;
