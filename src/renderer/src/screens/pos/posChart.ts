import type { PosRow } from '../../../../shared/claims';

/** One point of the chart: the rows whose period ends on `date`, summed. */
export interface PosPoint {
  /** `YYYY-MM-DD`, the end of the reporting period. */
  date: string;
  units: number;
  /** Dollars, rounded to cents. */
  revenue: number;
}

/**
 * Units sold and revenue per period end date, oldest first: every SKU and store of one week
 * makes one point. Sums are in cents while adding, so 0.1 + 0.2 gives 0.3.
 */
export function seriesByDate(
  rows: readonly Pick<PosRow, 'end_date' | 'units_sold' | 'revenue'>[],
): PosPoint[] {
  const byDate = new Map<string, { units: number; cents: number }>();
  for (const row of rows) {
    const point = byDate.get(row.end_date) ?? { units: 0, cents: 0 };
    point.units += row.units_sold;
    point.cents += Math.round(row.revenue * 100);
    byDate.set(row.end_date, point);
  }
  return [...byDate.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, point]) => ({ date, units: point.units, revenue: point.cents / 100 }));
}

/** Totals of a series, for the chart's text summary. */
export function seriesTotals(points: readonly PosPoint[]): { units: number; revenue: number } {
  const cents = points.reduce((sum, point) => sum + Math.round(point.revenue * 100), 0);
  return { units: points.reduce((sum, point) => sum + point.units, 0), revenue: cents / 100 };
}

/** Most rows the chart loads (pages of 100); beyond it the chart says it shows the newest only. */
export const CHART_ROW_LIMIT = 2000;
