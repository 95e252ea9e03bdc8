import type { PosRowsTable } from './tables';
import { centsOf } from './money';

/** The figures of a POS row as given (dollars); the derived ones may be absent. */
export interface PosFigures {
  units_sold: number;
  revenue: number;
  cogs: number;
  returns: number;
  net_units?: number | undefined;
  gross_margin?: number | undefined;
  margin_percent?: number | undefined;
  inventory_units: number;
  inventory_cost: number;
  damaged_inventory_units: number;
  damaged_inventory_cost: number;
  on_order_units: number;
  on_order_cost: number;
}

type PosMetricColumns = Pick<
  PosRowsTable,
  | 'units_sold'
  | 'revenue_cents'
  | 'cogs_cents'
  | 'returns'
  | 'net_units'
  | 'gross_margin_cents'
  | 'margin_percent'
  | 'inventory_units'
  | 'inventory_cost_cents'
  | 'damaged_inventory_units'
  | 'damaged_inventory_cost_cents'
  | 'on_order_units'
  | 'on_order_cost_cents'
>;

/**
 * Stored columns of a POS row. Absent derived figures: net units = units sold - returns; gross
 * margin = revenue - COGS; margin percent = gross margin / revenue x 100, two decimals (0 without
 * revenue).
 */
export function posMetricColumns(figures: PosFigures): PosMetricColumns {
  const revenueCents = centsOf(figures.revenue);
  const grossMarginCents =
    figures.gross_margin === undefined
      ? revenueCents - centsOf(figures.cogs)
      : centsOf(figures.gross_margin);
  const marginPercent =
    figures.margin_percent ??
    (revenueCents === 0 ? 0 : Math.round((grossMarginCents / revenueCents) * 10_000) / 100);
  return {
    units_sold: figures.units_sold,
    revenue_cents: revenueCents,
    cogs_cents: centsOf(figures.cogs),
    returns: figures.returns,
    net_units: figures.net_units ?? figures.units_sold - figures.returns,
    gross_margin_cents: grossMarginCents,
    margin_percent: marginPercent,
    inventory_units: figures.inventory_units,
    inventory_cost_cents: centsOf(figures.inventory_cost),
    damaged_inventory_units: figures.damaged_inventory_units,
    damaged_inventory_cost_cents: centsOf(figures.damaged_inventory_cost),
    on_order_units: figures.on_order_units,
    on_order_cost_cents: centsOf(figures.on_order_cost),
  };
}
