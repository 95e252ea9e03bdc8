import { describe, expect, it } from 'vitest';
import { acknowledgeBodyOf, acknowledgeFormSchema } from '../../src/shared/edi-documents';
import {
  isRetryable,
  ORDER_DOCUMENT_STATUSES,
  type OrderDocumentView,
} from '../../src/shared/order-documents';
import {
  DOCUMENT_STATUS_NAMES,
  attentionCounts,
  statusName,
} from '../../src/renderer/src/screens/edi/documentNames';
import {
  ediDocumentRequestOf,
  ediDocumentsSearchSchema,
  emptyMessage,
  searchForView,
  viewOf,
} from '../../src/renderer/src/screens/edi/ediDocumentsSearch';
import { acknowledgeOutcome } from '../../src/renderer/src/screens/orders/acknowledgeOutcome';

describe('retailer documents: words', () => {
  it('never calls a queued document sent', () => {
    expect(DOCUMENT_STATUS_NAMES.queued).not.toMatch(/\bsent\b(?!\s*yet)/);
    expect(DOCUMENT_STATUS_NAMES.queued).toBe('queued, not sent yet');
    for (const status of ORDER_DOCUMENT_STATUSES) expect(statusName(status)).not.toBe('');
    expect(statusName('duplicate')).toBe('duplicate (already received)');
  });

  it('gives the header one count per list, each named for screen readers', () => {
    expect(attentionCounts(2, 1)).toEqual([
      { status: 'overdue', n: 2, text: 'overdue', label: '2 overdue acknowledgments' },
      { status: 'failed', n: 1, text: 'failed', label: '1 failed retailer document' },
    ]);
    expect(attentionCounts(1, 0).map((count) => count.label)).toEqual(['1 overdue acknowledgment']);
    expect(attentionCounts(0, 0)).toEqual([]);
  });

  it('offers Retry only for a failed document that has content to send', () => {
    const x12 = 'application/edi-x12';
    expect(isRetryable({ status: 'failed', content_type: x12 })).toBe(true);
    expect(isRetryable({ status: 'failed', content_type: null })).toBe(false);
    for (const status of ORDER_DOCUMENT_STATUSES.filter((s) => s !== 'failed')) {
      expect(isRetryable({ status, content_type: x12 })).toBe(false);
    }
  });

  it('says after acknowledging what each 855 is, queued included', () => {
    const doc = {
      retailer_name: 'Retailer One',
      status: 'queued',
      error: null,
    } as OrderDocumentView;
    expect(acknowledgeOutcome('The acknowledgment waits to be sent to Retailer One', [doc])).toBe(
      'The acknowledgment waits to be sent to Retailer One. Retailer One: queued, not sent yet.',
    );
  });
});

describe('retailer documents: URL state', () => {
  it('drops values that do not fit and pages from 1', () => {
    const search = ediDocumentsSearchSchema.parse({ status: 'lost', type: '999', page: 0 });
    expect(search).toEqual({ status: undefined, type: undefined, page: undefined });
    expect(ediDocumentRequestOf(search)).toEqual({
      status: undefined,
      type: undefined,
      page: 1,
      pageSize: 50,
    });
  });

  it('the overdue view is the overdue status, keeping the type filter', () => {
    const search = ediDocumentsSearchSchema.parse({ status: 'failed', type: '856', page: 3 });
    expect(viewOf(search)).toBe('all');
    expect(searchForView(search, 'overdue')).toEqual({ type: '856', status: 'overdue' });
    expect(viewOf({ status: 'overdue' })).toBe('overdue');
    expect(emptyMessage({ status: 'overdue' })).toMatch(/^No overdue acknowledgments/);
    expect(emptyMessage({})).toMatch(/^No documents yet/);
  });
});

describe('the Acknowledge panel form', () => {
  const form = (lines: { line_id: string; status: string; quantity: string }[]) =>
    acknowledgeFormSchema.safeParse({ lines });

  it('sends only the lines not accepted, with the quantity where it changed', () => {
    const parsed = form([
      { line_id: '1', status: 'accepted', quantity: '24' },
      { line_id: '2', status: 'rejected', quantity: '12' },
      { line_id: '3', status: 'quantity_changed', quantity: ' 4 ' },
      { line_id: '4', status: 'backordered', quantity: '1' },
    ]);
    expect(parsed.success).toBe(true);
    expect(acknowledgeBodyOf(parsed.data!)).toEqual({
      lines: [
        { line_id: '2', status: 'rejected' },
        { line_id: '3', status: 'quantity_changed', quantity: 4 },
        { line_id: '4', status: 'backordered' },
      ],
    });
  });

  it('asks for a whole quantity only when the quantity changed', () => {
    const bad = form([{ line_id: '3', status: 'quantity_changed', quantity: '2.5' }]);
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]).toMatchObject({
      path: ['lines', 0, 'quantity'],
      message: 'Enter the quantity you will ship (a whole number)',
    });
    expect(form([{ line_id: '3', status: 'rejected', quantity: '' }]).success).toBe(true);
  });
});
