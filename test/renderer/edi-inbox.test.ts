import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/renderer/src/api/ApiError';
import { refusedInterchangeId } from '../../src/renderer/src/api/ediInbox';
import type { InterchangeSummaryView } from '../../src/shared/edi-inbound';
import type { InterchangeOutcomeValue } from '../../src/shared/edi-inbox';
import {
  canReprocess,
  importProgress,
  importRefusal,
  importResult,
} from '../../src/renderer/src/screens/edi/inboxFormat';

const summary = (
  sets: InterchangeSummaryView['transaction_sets'],
  duplicate = false,
): InterchangeSummaryView => ({
  interchange_id: 'i1',
  interchange_control_number: '000000001',
  duplicate,
  outcome: duplicate ? 'duplicate' : 'accepted',
  transaction_sets: sets,
});

const set = (
  status: 'accepted' | 'rejected' | 'duplicate',
  extra: Partial<InterchangeSummaryView['transaction_sets'][number]> = {},
) => ({
  type: '850',
  control_number: '0001',
  status,
  po_number: '4500012345',
  order_id: status === 'rejected' ? null : 'o1',
  errors: [],
  ...extra,
});

describe('the EDI inbox words', () => {
  it('takes .edi, .x12 and .txt files (any case) and says why another is refused', () => {
    for (const name of ['po.edi', 'PO.X12', 'orders.txt']) expect(importRefusal(name)).toBeNull();
    expect(importRefusal('po.pdf')).toBe(
      'po.pdf was not imported: only .edi, .x12 and .txt files hold purchase orders.',
    );
    expect(importRefusal('edi')).not.toBeNull();
  });

  it('says per file how many orders were made, duplicates and rejected sets with the first reason', () => {
    expect(importResult(summary([set('accepted'), set('accepted')]))).toBe('2 orders created.');
    expect(
      importResult(
        summary([
          set('accepted'),
          set('duplicate'),
          set('rejected', { po_number: '4500012346', errors: ['The PO names no warehouse'] }),
        ]),
      ),
    ).toBe('1 order created, 1 duplicate, 1 rejected (PO 4500012346: The PO names no warehouse).');
    expect(importResult(summary([set('duplicate')], true))).toBe(
      'Duplicate: this interchange was received before, so nothing was taken in again.',
    );
  });

  it('offers Reprocess only where something was not taken in, and its text was kept', () => {
    const kept = (outcome: InterchangeOutcomeValue) => ({ outcome, content_kept: true });
    expect(canReprocess(kept('refused'))).toBe(true);
    expect(canReprocess(kept('rejected'))).toBe(true);
    expect(canReprocess(kept('partial'))).toBe(true);
    expect(canReprocess(kept('accepted'))).toBe(false);
    expect(canReprocess(kept('duplicate'))).toBe(false);
    // A file refused as too large: nothing of it was kept, so nothing to run again.
    expect(canReprocess({ outcome: 'refused', content_kept: false })).toBe(false);
  });
});

describe('import progress', () => {
  it('counts the files as they go, then says what the batch came to', () => {
    expect(importProgress(0, 3, 0)).toBe('Importing file 1 of 3…');
    expect(importProgress(2, 3, 1)).toBe('Importing file 3 of 3…');
    expect(importProgress(1, 1, 0)).toBe('Imported 1 file.');
    expect(importProgress(3, 3, 1)).toBe(
      'Done: 3 files, 1 refused. Each file’s line below says what it did.',
    );
  });
});

describe('a refused import', () => {
  it('finds the interchange the refusal was recorded as, else none', () => {
    const refusal = (body: unknown) => new ApiError(400, 'INVALID_REQUEST', 'refused', body);
    expect(
      refusedInterchangeId(
        refusal({
          message: 'The interchange was refused: …',
          error: { code: 'INVALID_REQUEST', data: { interchange_id: 'i-1', outcome: 'refused' } },
        }),
      ),
    ).toBe('i-1');
    expect(refusedInterchangeId(refusal({ message: 'not X12', error: { code: 'X' } }))).toBeNull();
    expect(refusedInterchangeId(refusal(null))).toBeNull();
    expect(refusedInterchangeId(new Error('offline'))).toBeNull();
  });
});
