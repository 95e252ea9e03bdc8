import {
  countChargebacks,
  findOrdersByPurchaseOrder,
  listChargebacks,
  type ChargebackFilter,
  type ChargebackRow,
} from './queries';
import {
  SETTLED_STATUSES,
  type Chargeback,
  type ChargebackListQuery,
  type ChargebackPage,
  type DisputeStatus,
} from '../../shared/claims';
import { localDay } from '../../shared/inventory';
import type { AuthUser, ServiceContext } from '../core/context';
import { dollarsOf } from './money';
import { requireLinkedRetailer, visibleBrandIds } from './scope';
import { chargebackState } from './status';

type MatchedOrder = Chargeback['matched_orders'][number];

/** The interface's chargeback from a stored row and the orders matched to it. */
export function chargebackView(
  row: ChargebackRow,
  matchedOrders: MatchedOrder[],
  today: string,
): Chargeback {
  const status = row.dispute_status as DisputeStatus;
  return {
    id: row.id,
    brand_id: row.brand_id,
    chargeback_id: row.chargeback_id,
    po_number: row.po_number,
    matched_orders: matchedOrders,
    retailer_id: row.retailer_id,
    retailer: row.retailer_name,
    amount: dollarsOf(row.amount_cents),
    amount_won_back: dollarsOf(row.amount_won_back_cents),
    retailer_chargeback_code: row.retailer_chargeback_code,
    category: row.category,
    description: row.description,
    chargeback_date: row.chargeback_date,
    uploaded_at: row.uploaded_at,
    dispute_deadline: row.dispute_deadline,
    dispute_status: status,
    ...chargebackState(status, row.dispute_deadline, today),
  };
}

const keyOf = (brandId: string, retailerId: string, poNumber: string) =>
  JSON.stringify([brandId, retailerId, poNumber]);

/**
 * The orders each chargeback points at: the user's visible orders of the same brand and retailer
 * with the same PO number (exact match; a chargeback without a PO matches none), oldest first.
 */
export async function matchOrders(
  ctx: ServiceContext,
  user: AuthUser,
  rows: readonly Pick<ChargebackRow, 'brand_id' | 'retailer_id' | 'po_number'>[],
): Promise<MatchedOrder[][]> {
  const orders = await findOrdersByPurchaseOrder(ctx.db, user, rows);
  const byKey = new Map<string, MatchedOrder[]>();
  for (const order of orders) {
    const key = keyOf(order.brand_id, order.retailer_id, order.po_number ?? '');
    const list = byKey.get(key) ?? [];
    list.push({ order_id: order.id, picksheet_code: order.picksheet_code });
    byKey.set(key, list);
  }
  return rows.map((row) => byKey.get(keyOf(row.brand_id, row.retailer_id, row.po_number)) ?? []);
}

/** Endpoint 14: one page of the chargebacks of the brands the user sees, newest first. */
export async function chargebackList(
  ctx: ServiceContext,
  user: AuthUser,
  query: ChargebackListQuery,
): Promise<ChargebackPage> {
  const brandIds = await visibleBrandIds(ctx, user);
  if (query.retailer_id) await requireLinkedRetailer(ctx, query.retailer_id, brandIds);
  const today = localDay(ctx.clock.now());
  const filter: ChargebackFilter = {
    brandIds,
    retailerId: query.retailer_id,
    poNumber: query.po_number,
    chargebackId: query.chargeback_id,
    statuses: query.dispute_status,
    settled: query.settled,
    startDate: query.start_date,
    endDate: query.end_date,
    today,
    settledStatuses: SETTLED_STATUSES,
  };
  const [totalCount, rows] = await Promise.all([
    countChargebacks(ctx.db, filter),
    listChargebacks(ctx.db, filter, {
      limit: query.page_size,
      offset: (query.page - 1) * query.page_size,
    }),
  ]);
  const matched = await matchOrders(ctx, user, rows);
  return {
    items: rows.map((row, index) => chargebackView(row, matched[index]!, today)),
    total_count: totalCount,
    page: query.page,
    page_size: query.page_size,
  };
}
