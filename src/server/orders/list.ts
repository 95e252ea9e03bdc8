import { countOrders, listOrders, type OrderListFilter, type OrderListRow } from './read-queries';
import type { OrderListItem, OrderListPage, OrderListQuery } from '../../shared/orders';
import { localDay } from '../../shared/inventory';
import { shipByDate, shipByStatus } from '../../shared/ship-by';
import type { AuthUser, ServiceContext } from '../core/context';
import { facilitiesOf } from '../access/lookups';

function listItemView(row: OrderListRow, today: string): OrderListItem {
  const shipBy = shipByDate(row);
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
    ship_by: shipBy,
    ship_by_status: shipByStatus(shipBy, row.status, today),
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
 * nothing: the page is empty, as for ids that do not exist. Each order carries its ship-by day and
 * whether it is late or due today.
 */
export async function orderList(
  ctx: ServiceContext,
  user: AuthUser,
  query: OrderListQuery,
): Promise<OrderListPage> {
  const facilities = await facilitiesOf(ctx, user);
  // Late and due are judged by the workstation's calendar day, as the clerk reads the dates.
  const today = localDay(ctx.clock.now());
  const filter: OrderListFilter = {
    facilityIds: facilities.map((facility) => facility.id),
    userBrandId: user.brandId,
    search: query.search || undefined,
    statuses: query.status,
    facilityId: query.facility_id,
    retailerId: query.retailer_id,
    brandId: query.brand_id,
    shipByFrom: query.ship_by_from,
    shipByTo: query.ship_by_to,
    due: query.due && { filter: query.due, today },
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
    orders: rows.map((row) => listItemView(row, today)),
  };
}
