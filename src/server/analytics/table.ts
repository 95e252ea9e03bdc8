import { listAnalyticsOrders } from './queries';
import {
  ANALYTICS_PAGE_SIZE,
  type AnalyticsV1Query,
  type AnalyticsV1Row,
  type AnalyticsV2Query,
  type AnalyticsV2Row,
} from '../../shared/analytics';
import type { AuthUser, ServiceContext } from '../core/context';
import { notFound } from '../core/errors';
import { facilitiesOf } from '../access';
import { analyticsRow, v1Row } from './rows';

export const FACILITY_NOT_FOUND = 'Facility not found';

/** page from 1; page_size defaults to and is capped at 10 (interface, Limits). */
function pageOf(query: AnalyticsV1Query) {
  const size = Math.min(query.page_size ?? ANALYTICS_PAGE_SIZE, ANALYTICS_PAGE_SIZE);
  return { limit: size, offset: ((query.page ?? 1) - 1) * size };
}

/**
 * Orders analytics v2 (9): one facility's orders, newest first. A facility the user does not
 * see answers exactly like one that does not exist.
 */
export async function analyticsTableV2(
  ctx: ServiceContext,
  user: AuthUser,
  facilityId: string,
  query: AnalyticsV2Query,
): Promise<AnalyticsV2Row[]> {
  const facilities = await facilitiesOf(ctx, user);
  if (!facilities.some((facility) => facility.id === facilityId)) {
    throw notFound(FACILITY_NOT_FOUND);
  }
  const orders = await listAnalyticsOrders(
    ctx.db,
    { facilityIds: [facilityId], userBrandId: user.brandId, orderId: query.order_id },
    pageOf(query),
  );
  return orders.map(analyticsRow);
}

/** Orders analytics v1 (10): the orders of every facility the user sees, newest first. */
export async function analyticsTableV1(
  ctx: ServiceContext,
  user: AuthUser,
  query: AnalyticsV1Query,
): Promise<AnalyticsV1Row[]> {
  const facilities = await facilitiesOf(ctx, user);
  const orders = await listAnalyticsOrders(
    ctx.db,
    { facilityIds: facilities.map((facility) => facility.id), userBrandId: user.brandId },
    pageOf(query),
  );
  return orders.map((order) => v1Row(analyticsRow(order)));
}
