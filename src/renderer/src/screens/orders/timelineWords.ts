import type { AcknowledgmentOptions, TimelineEntry } from '../../../../shared/edi-documents';
import type { OrderStatus } from '../../../../shared/orders';

/** The words of an order's document timeline that depend on what is stored. */

/**
 * The time an entry shows: received for what came in; made for a document that never left the
 * outbox (queued or failed), sent for one the transport took. Never "sent" for a queued one.
 */
export function entryTimeWord(entry: Pick<TimelineEntry, 'direction' | 'status'>): string {
  if (entry.direction === 'in') return 'Received';
  return entry.status === 'queued' || entry.status === 'failed' ? 'Made' : 'Sent';
}

/** What an order with no documents yet says: why, and what the clerk can do about it. */
export function noDocumentsYet(status: OrderStatus, acknowledgment: AcknowledgmentOptions): string {
  const parts = ['No documents with the retailer yet.'];
  if (acknowledgment.available) {
    parts.push('Send an acknowledgment (855) below if the retailer expects one.');
  } else if (acknowledgment.reason && status !== 'Cancelled') {
    parts.push(`${acknowledgment.reason}.`);
  }
  if (status === 'Cancelled') {
    parts.push('This order is cancelled: nothing more goes to the retailer.');
  } else if (status === 'Shipped') {
    parts.push('None was made when it shipped: no connection of this retailer took documents.');
  } else {
    parts.push(
      'The ASN (or shipment confirmation) is made when the order ships, for each connection that takes one.',
    );
  }
  return parts.join(' ');
}
