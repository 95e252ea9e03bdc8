import {
  countOrders,
  listOrders,
  type OrderListFilter,
  type OrderListRow,
} from '../../db/order-reads';
import type { OrderListItem, OrderListPage, OrderListQuery } from '../../../shared/orders';
import type { AuthUser, ServiceContext } from '../context';
import { facilitiesOf } from '../lookups';

function listItemView(row: OrderListRow): OrderListItem {
  return {
    id: row.id,
    picksheet_code: row.picksheet_code,
    po_number: row.po_number,
    external_order_id: row.external_order_id,
    status: row.status,
    brand: { brand_id: row.brand_id, name: row.brand_name },
    retailer: { retailer_id: row.retailer_id, name: row.retailer_name },
    facility: {
      id: row.facility_id,
      name: row.facility_name,
      external_facility_code: row.external_facility_code,
    },
    requested_ship_date: row.requested_ship_date,
    cancel_by_date: row.cancel_by_date,
    item_count: Number(row.item_count ?? 0),
    total_units: Number(row.total_units ?? 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * One page of the orders the user sees (its facilities; its brand's orders only, for credentials
 * acting for a brand). Filters naming a facility, brand or retailer outside that scope match
 * nothing: the page is empty, as for ids that do not exist.
 */
export async function orderList(
  ctx: ServiceContext,
  user: AuthUser,
  query: OrderListQuery,
): Promise<OrderListPage> {
  const facilities = await facilitiesOf(ctx, user);
  const filter: OrderListFilter = {
    facilityIds: facilities.map((facility) => facility.id),
    userBrandId: user.brandId,
    search: query.search || undefined,
    statuses: query.status,
    facilityId: query.facility_id,
    retailerId: query.retailer_id,
    brandId: query.brand_id,
  };
  const [totalCount, rows] = await Promise.all([
    countOrders(ctx.db, filter),
    listOrders(
      ctx.db,
      filter,
      { field: query.order_by, direction: query.order_direction },
      { limit: query.page_size, offset: (query.page - 1) * query.page_size },
    ),
  ]);
  return {
    page: query.page,
    page_size: query.page_size,
    total_count: totalCount,
    orders: rows.map(listItemView),
  };
}
