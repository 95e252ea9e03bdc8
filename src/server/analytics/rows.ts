import type { AnalyticsOrder } from './queries';
import type { AnalyticsV1Row, AnalyticsV2Row } from '../../shared/analytics';
import { ORDER_TIMESTAMP_FIELDS, type OrderTimestampField } from '../../shared/orders';
import { httpDateOf } from '../core/time-text';

/** An HTTP-date (`Tue, 06 Jan 2026 12:00:00 GMT`) of a stored time or date; null when absent. */
export function httpDate(value: string | null): string | null {
  return value ? httpDateOf(value) : null;
}

interface LineIn {
  sku: string;
  upc: string | null;
  quantity: number;
}

/**
 * The line items of a row. Shipped quantity is what was packed of the line's SKU once the order
 * is Shipped (0 before); lines sharing a SKU take it in line order, each up to its ordered
 * quantity, and the last of them keeps any surplus.
 */
export function lineItems(lines: readonly LineIn[], packed: Map<string, number>, shipped: boolean) {
  const left = new Map(shipped ? packed : []);
  const lastIndex = new Map(lines.map((line, index) => [line.sku, index]));
  return lines.map((line, index) => {
    const available = left.get(line.sku) ?? 0;
    const take = lastIndex.get(line.sku) === index ? available : Math.min(available, line.quantity);
    left.set(line.sku, available - take);
    return {
      ordered_quantity: line.quantity,
      shipped_quantity: take,
      sku: line.sku,
      upc: line.upc,
    };
  });
}

/** The v2 row of an order of the page query, counts taken from its rows. */
export function analyticsRow(order: AnalyticsOrder): AnalyticsV2Row {
  // Assigned one by one: spreading an object built by Object.fromEntries cost ~15 µs a row.
  const times = {} as Pick<AnalyticsV2Row, OrderTimestampField>;
  for (const field of ORDER_TIMESTAMP_FIELDS) times[field] = httpDate(order.times[field]);
  const packed = new Map(Object.entries(order.packed ?? {}));
  return Object.assign(times, {
    order_id: order.id,
    order_number: order.picksheet_code,
    order_status: order.status,
    brand: order.brand_name,
    retailer: order.retailer_name,
    line_items: lineItems(order.lines, packed, order.status === 'Shipped'),
    total_cartons: order.cartons,
    total_labels: order.labels,
    total_pallets: order.pallets,
    total_units: order.units,
    total_vas_actions: order.vas_actions,
    unique_labels: order.unique_labels,
    unique_sku_count: order.skus,
  });
}

/** The v1 row of a v2 row. */
export function v1Row(row: AnalyticsV2Row): AnalyticsV1Row {
  return {
    asn_sent_at: row.asn_sent_at,
    brand: row.brand,
    retailer: row.retailer,
    order_number: row.order_number,
    order_status: row.order_status,
    total_cartons: row.total_cartons,
    total_labels: row.total_labels,
    unique_labels: row.unique_labels,
    total_pallets: row.total_pallets,
    unique_sku_count: row.unique_sku_count,
    total_units: row.total_units,
    total_vas_actions: row.total_vas_actions,
  };
}
