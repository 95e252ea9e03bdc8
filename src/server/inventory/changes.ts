import type { AdviceLine } from './transmission/types';

/** A swing this large (both in units and relative to the previous quantity) is flagged in a preview. */
export const SWING_MIN_UNITS = 10;
export const SWING_MIN_RATIO = 0.5;

export interface SnapshotChanges {
  /** SKUs in the baseline but not in the new snapshot: they vanish at the retailer. */
  dropped_skus: string[];
  /** SKUs that had stock and now go to 0. */
  new_zero_skus: string[];
  big_swings: { sku: string; previous: number; next: number }[];
  added_skus: string[];
}

export function compareSnapshots(baseline: AdviceLine[], next: AdviceLine[]): SnapshotChanges {
  const previous = new Map(baseline.map((line) => [line.sku, line.available_quantity]));
  const nextSkus = new Set(next.map((line) => line.sku));
  const changes: SnapshotChanges = {
    dropped_skus: baseline.filter((line) => !nextSkus.has(line.sku)).map((line) => line.sku),
    new_zero_skus: [],
    big_swings: [],
    added_skus: [],
  };
  for (const line of next) {
    const before = previous.get(line.sku);
    if (before === undefined) {
      changes.added_skus.push(line.sku);
      continue;
    }
    if (before > 0 && line.available_quantity === 0) changes.new_zero_skus.push(line.sku);
    else {
      const delta = Math.abs(line.available_quantity - before);
      if (delta >= SWING_MIN_UNITS && delta >= before * SWING_MIN_RATIO) {
        changes.big_swings.push({ sku: line.sku, previous: before, next: line.available_quantity });
      }
    }
  }
  return changes;
}
