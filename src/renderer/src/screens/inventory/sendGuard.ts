import { inventoryItemSchema, type InventoryItem } from '../../../../shared/inventory';
import type { AdvicePreview } from '../../api/inventory';
import type { RowInput } from './sheetRows';

/** What a send would do that a clerk should confirm first, per retailer. */
export interface SendRisk {
  retailer: string;
  /** SKUs the retailer lists now that this file leaves out: they vanish. */
  vanishing: string[];
  /** SKUs going from stock to 0. */
  goingToZero: string[];
}

/** The retailers where SKUs vanish or go to 0, from a preview. */
export function sendRisks(preview: AdvicePreview): SendRisk[] {
  return preview.connections.flatMap((connection) => {
    const { dropped_skus: vanishing, new_zero_skus: goingToZero } = connection.changes;
    if (vanishing.length === 0 && goingToZero.length === 0) return [];
    return [{ retailer: connection.retailer_name, vanishing, goingToZero }];
  });
}

type Line = Pick<
  InventoryItem,
  'sku' | 'available_quantity' | 'status' | 'estimated_back_in_stock_date'
>;

const key = (line: Line) =>
  JSON.stringify([
    line.sku,
    line.available_quantity,
    line.status ?? null,
    line.estimated_back_in_stock_date ?? null,
  ]);

/** The rows as the service would store them (trimmed SKU, whole quantity, upper-case status). */
function normalised(items: readonly RowInput[]): Line[] | null {
  const lines: Line[] = [];
  for (const item of items) {
    const parsed = inventoryItemSchema.safeParse(item);
    if (!parsed.success) return null;
    lines.push(parsed.data);
  }
  return lines;
}

/**
 * Whether `items` say exactly what `sent` said: the same SKUs with the same quantity, status and
 * date, in any order. A full snapshot is judged by its content, not its row order.
 */
export function sameRows(items: readonly RowInput[], sent: readonly Line[]): boolean {
  const lines = normalised(items);
  if (!lines || lines.length !== sent.length) return false;
  const mine = lines.map(key).sort();
  const theirs = sent.map(key).sort();
  return mine.every((value, i) => value === theirs[i]);
}
