import type {
  OrderDocumentStatusValue,
  OrderDocumentTypeValue,
} from '../../../../shared/order-documents';

/** What a clerk calls each document. */
export const DOCUMENT_TYPE_NAMES: Record<OrderDocumentTypeValue | '850' | '860', string> = {
  '850': 'Purchase order (850)',
  '860': 'Purchase order change (860)',
  '856': 'ASN (856)',
  '855': 'PO acknowledgment (855)',
  '810': 'Invoice (810)',
  '997': 'Functional acknowledgment (997)',
  SHIPMENT_CONFIRMATION: 'Shipment confirmation',
  TRACKING: 'Tracking update',
};

export function documentTypeName(type: string): string {
  return type in DOCUMENT_TYPE_NAMES
    ? DOCUMENT_TYPE_NAMES[type as keyof typeof DOCUMENT_TYPE_NAMES]
    : `Document ${type}`;
}

/**
 * Each status in clerk words. `queued` says it waits: a document in the outbox is never called
 * sent (DESIGN.md: the screen says queued, sent, accepted or rejected).
 */
export const DOCUMENT_STATUS_NAMES: Record<OrderDocumentStatusValue, string> = {
  queued: 'queued, not sent yet',
  sent: 'sent',
  failed: 'failed',
  accepted: 'accepted',
  accepted_with_errors: 'accepted with errors',
  rejected: 'rejected',
  overdue: 'sent, no acknowledgment yet (overdue)',
};

/** Inbound set statuses (850, 860) and outbound document statuses alike. */
export function statusName(status: string): string {
  if (status in DOCUMENT_STATUS_NAMES) {
    return DOCUMENT_STATUS_NAMES[status as OrderDocumentStatusValue];
  }
  if (status === 'duplicate') return 'duplicate (already received)';
  return status.replaceAll('_', ' ');
}

/** One header count: the list it opens, its short text and its full name. */
export interface AttentionCount {
  status: 'overdue' | 'failed';
  n: number;
  text: string;
  label: string;
}

/**
 * The header's counts of what needs a clerk, each linking to the list with exactly that many
 * rows: overdue acknowledgments, then failed documents; none for a zero.
 */
export function attentionCounts(overdue: number, failed: number): AttentionCount[] {
  const counts: AttentionCount[] = [];
  if (overdue > 0) {
    counts.push({
      status: 'overdue',
      n: overdue,
      text: 'overdue',
      label: `${overdue} overdue acknowledgment${overdue === 1 ? '' : 's'}`,
    });
  }
  if (failed > 0) {
    counts.push({
      status: 'failed',
      n: failed,
      text: 'failed',
      label: `${failed} failed retailer document${failed === 1 ? '' : 's'}`,
    });
  }
  return counts;
}
