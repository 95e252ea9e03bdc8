import type { OrderDetails, OrderStatus } from '../../../../shared/orders';

/** One step of the status timeline. */
export interface TimelineStep {
  label: string;
  status: OrderStatus | null;
  at: string | null;
}

/**
 * The order's steps in the status flow (Open → Picking → Packed → Staged → Loaded → Shipped)
 * with when each happened; a cancelled order ends with its cancellation.
 */
export function timelineOf(order: OrderDetails): TimelineStep[] {
  const steps: TimelineStep[] = [
    { label: 'Created', status: 'Open', at: order.created_at },
    { label: 'Picking started', status: 'Picking', at: order.started_at },
    { label: 'Packed', status: 'Packed', at: order.packed_at },
    { label: 'Staged', status: 'Staged', at: order.staged_at },
    { label: 'Loaded', status: 'Loaded', at: order.loaded_at },
    { label: 'Shipped', status: 'Shipped', at: order.shipped_at ?? order.asn_sent_at },
  ];
  if (order.status === 'Cancelled') {
    return [
      ...steps.filter((step) => step.at !== null),
      { label: 'Cancelled', status: 'Cancelled', at: order.cancelled_at },
    ];
  }
  return steps;
}
