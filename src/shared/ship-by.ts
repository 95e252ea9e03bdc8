import { FINAL_STATUSES, type OrderStatus } from './orders';

/**
 * "Ship by": the date an order must leave the dock, and the date compliance judges a shipment
 * against. It is the latest ship date, falling back to the requested ship date where the retailer
 * gave no window. One function, so the order list, the order page and the compliance report agree.
 */

/** The order's ship-by day (`YYYY-MM-DD`), or null when it has neither date. */
export function shipByDate(dates: {
  latest_ship_date?: string | null;
  requested_ship_date?: string | null;
}): string | null {
  const date = dates.latest_ship_date || dates.requested_ship_date;
  // Dates are stored as written (`YYYY-MM-DD`); an instant counts by its calendar day.
  return date ? date.slice(0, 10) : null;
}

/** How the ship-by day stands today: `late` once it has passed, `due_today` on the day. */
export type ShipByStatus = 'late' | 'due_today';

/** Orders that have shipped or are cancelled are never late. */
export function shipByStatus(
  shipBy: string | null,
  orderStatus: OrderStatus,
  today: string,
): ShipByStatus | null {
  if (!shipBy || FINAL_STATUSES.includes(orderStatus)) return null;
  if (shipBy < today) return 'late';
  return shipBy === today ? 'due_today' : null;
}
