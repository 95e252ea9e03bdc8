import type { QueryClient } from '@tanstack/react-query';
import type { OrderListRequest } from './orders';

/**
 * Everything about orders sits under one prefix, so a write refreshes every view of them. In
 * `api/`, because more than the Orders screens write orders: packing, and a sync conflict's answer.
 */
export const orderKeys = {
  all: ['orders'] as const,
  list: (request: OrderListRequest) => [...orderKeys.all, 'list', request] as const,
  one: (orderId: string) => [...orderKeys.all, 'one', orderId] as const,
  bol: (orderId: string) => [...orderKeys.all, 'bol', orderId] as const,
};

export function invalidateOrders(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: orderKeys.all });
}
