import { countPosRows, listPosRows, type PosFilter, type PosRowRecord } from './queries';
import type { PosListQuery, PosPage, PosRow } from '../../shared/claims';
import type { AuthUser, ServiceContext } from '../core/context';
import { dollarsOf } from './money';
import { requireLinkedRetailer, visibleBrandIds } from './scope';

export function posRowView(row: PosRowRecord): PosRow {
  return {
    id: row.id,
    brand_id: row.brand_id,
    retailer_id: row.retailer_id,
    sku: row.sku,
    retailer: row.retailer_name,
    location: row.location,
    start_date: row.start_date,
    end_date: row.end_date,
    units_sold: row.units_sold,
    revenue: dollarsOf(row.revenue_cents),
    cogs: dollarsOf(row.cogs_cents),
    returns: row.returns,
    net_units: row.net_units,
    gross_margin: dollarsOf(row.gross_margin_cents),
    margin_percent: row.margin_percent,
    inventory_units: row.inventory_units,
    inventory_cost: dollarsOf(row.inventory_cost_cents),
    damaged_inventory_units: row.damaged_inventory_units,
    damaged_inventory_cost: dollarsOf(row.damaged_inventory_cost_cents),
    on_order_units: row.on_order_units,
    on_order_cost: dollarsOf(row.on_order_cost_cents),
  };
}

/**
 * Endpoint 15: one page of the POS rows of the brands the user sees, newest period first.
 * `start_date` bounds the rows' start dates from below, `end_date` their end dates from above.
 */
export async function posReportList(
  ctx: ServiceContext,
  user: AuthUser,
  query: PosListQuery,
): Promise<PosPage> {
  const brandIds = await visibleBrandIds(ctx, user);
  if (query.retailer_id) await requireLinkedRetailer(ctx, query.retailer_id, brandIds);
  const filter: PosFilter = {
    brandIds,
    retailerId: query.retailer_id,
    startDate: query.start_date,
    endDate: query.end_date,
  };
  const [totalCount, rows] = await Promise.all([
    countPosRows(ctx.db, filter),
    listPosRows(ctx.db, filter, {
      limit: query.page_size,
      offset: (query.page - 1) * query.page_size,
    }),
  ]);
  return {
    items: rows.map(posRowView),
    total_count: totalCount,
    page: query.page,
    page_size: query.page_size,
  };
}
