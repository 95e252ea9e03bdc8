import { describe, expect, it } from 'vitest';
import type { AcknowledgmentOptions } from '../../src/shared/edi-documents';
import { ORDER_DOCUMENT_STATUSES } from '../../src/shared/order-documents';
import { entryTimeWord, noDocumentsYet } from '../../src/renderer/src/screens/orders/timelineWords';

const ack = (reason: string | null): AcknowledgmentOptions => ({
  available: reason === null,
  reason,
  lines: [],
});

describe('the order timeline: words that follow what is stored', () => {
  it('says "Sent" only for a document the transport took', () => {
    const words = Object.fromEntries(
      ORDER_DOCUMENT_STATUSES.map((status) => [
        status,
        entryTimeWord({ direction: 'out', status }),
      ]),
    );
    expect(words).toEqual({
      queued: 'Made',
      failed: 'Made',
      sent: 'Sent',
      accepted: 'Sent',
      accepted_with_errors: 'Sent',
      rejected: 'Sent',
      overdue: 'Sent',
    });
    expect(entryTimeWord({ direction: 'in', status: 'accepted' })).toBe('Received');
  });

  it('an order with no documents says what the clerk can do', () => {
    expect(noDocumentsYet('Open', ack(null))).toBe(
      'No documents with the retailer yet. Send an acknowledgment (855) below if the retailer expects one. The ASN (or shipment confirmation) is made when the order ships, for each connection that takes one.',
    );
    expect(
      noDocumentsYet(
        'Picking',
        ack('No connection of this retailer takes purchase order acknowledgments (855)'),
      ),
    ).toMatch(
      /^No documents with the retailer yet\. No connection of this retailer takes .*\(855\)\. The ASN/,
    );
    expect(noDocumentsYet('Shipped', ack('x'))).toMatch(/None was made when it shipped/);
    expect(noDocumentsYet('Cancelled', ack('This order is cancelled'))).toBe(
      'No documents with the retailer yet. This order is cancelled: nothing more goes to the retailer.',
    );
  });
});
