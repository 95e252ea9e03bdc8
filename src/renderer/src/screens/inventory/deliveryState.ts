import { formatUpcoming } from '../../format/time';
import { plural } from '../../format/plural';

/** What the UI reads of a delivery's state (a snapshot's delivery; the outbox fields may be absent). */
export interface DeliveryState {
  status: 'PENDING' | 'SUCCESS' | 'FAILURE';
  attempts: number;
  next_attempt_at?: string | null;
  given_up?: boolean;
}

/** The outbox's plan for a delivery that has not arrived yet, or '' when there is none. */
export function scheduleNote(delivery: DeliveryState, now: Date = new Date()): string {
  if (delivery.status === 'SUCCESS') return '';
  if (delivery.given_up) return `gave up after ${plural(delivery.attempts, 'attempt')}`;
  if (delivery.next_attempt_at) {
    const next = formatUpcoming(delivery.next_attempt_at, now);
    return delivery.attempts > 0
      ? `attempt ${delivery.attempts} failed, next try at ${next}`
      : `first try at ${next}`;
  }
  return '';
}

/** Deliveries of one send resent by hand: pending or failed, and with a document to resend. */
export function canRetry(delivery: { status: string; hasDocument: boolean }): boolean {
  return delivery.hasDocument && (delivery.status === 'FAILURE' || delivery.status === 'PENDING');
}

interface Ordered {
  retailer_name: string | null;
  delivery_id: string;
}

/** A stable order: retailer name (deliveries with none last), then delivery id. */
export function byRetailerThenId(a: Ordered, b: Ordered): number {
  if (a.retailer_name !== b.retailer_name) {
    if (a.retailer_name === null) return 1;
    if (b.retailer_name === null) return -1;
    const byName = a.retailer_name.localeCompare(b.retailer_name, undefined, {
      sensitivity: 'base',
    });
    if (byName !== 0) return byName;
  }
  return a.delivery_id < b.delivery_id ? -1 : a.delivery_id > b.delivery_id ? 1 : 0;
}

export function inStableOrder<T extends Ordered>(deliveries: readonly T[]): T[] {
  return [...deliveries].sort(byRetailerThenId);
}
