import { describe, expect, it } from 'vitest';
import {
  isFiltered,
  listRequestOf,
  searchAfterSort,
  transactionSearchSchema,
} from '../../src/renderer/src/screens/transactions/transactionSearch';
import { statusLabel } from '../../src/renderer/src/screens/transactions/transactionLabels';
import { EXECUTION_STATUSES } from '../../src/shared/transactions';

const TX = '0e000000-0000-4000-8000-000000000001';

describe('transaction log URL state', () => {
  it('drops values that do not fit rather than failing', () => {
    expect(
      transactionSearchSchema.parse({
        q: 'ab',
        status: 'BROKEN',
        facility: 'not-a-uuid',
        from: '2026-02-30',
        to: '2026-03-01',
        page: 1,
        open: TX,
      }),
    ).toEqual({
      q: undefined,
      status: undefined,
      action: undefined,
      facility: undefined,
      brand: undefined,
      retailer: undefined,
      error: undefined,
      from: undefined,
      to: '2026-03-01',
      transaction: undefined,
      order: undefined,
      po: undefined,
      sort: undefined,
      dir: undefined,
      page: undefined,
      open: TX,
    });
  });

  it('reads a numeric search as text', () => {
    expect(transactionSearchSchema.parse({ q: 4500157 }).q).toBe('4500157');
  });

  it('asks for the newest first, page 1 of 50, when the URL names no sort or page', () => {
    const request = listRequestOf(transactionSearchSchema.parse({ status: 'FAILURE' }));
    expect(request).toMatchObject({
      execution_status: 'FAILURE',
      order_by: 'created_at',
      order_direction: 'desc',
      page: '1',
      page_size: '50',
    });
  });

  it('counts filters, not the sort, page or open row', () => {
    expect(isFiltered({ sort: 'updated_at', dir: 'asc', page: 3, open: TX })).toBe(false);
    expect(isFiltered({ error: 'true' })).toBe(true);
    expect(isFiltered({ po: 'BB4500157' })).toBe(true);
  });

  it('flips the sorted column, starts another A to Z, and goes back to page 1', () => {
    expect(searchAfterSort({ page: 4 }, 'created_at')).toEqual({
      page: undefined,
      sort: 'created_at',
      dir: 'asc',
    });
    expect(searchAfterSort({ sort: 'created_at', dir: 'asc' }, 'created_at')).toEqual({
      page: undefined,
      sort: undefined,
      dir: undefined,
    });
    expect(searchAfterSort({}, 'execution_status')).toEqual({
      page: undefined,
      sort: 'execution_status',
      dir: 'asc',
    });
  });
});

describe('transaction status words', () => {
  it('says every execution status in a clerk’s words, never the raw code', () => {
    expect(EXECUTION_STATUSES.map(statusLabel)).toEqual([
      'Sent',
      'Failed',
      'Will retry',
      'Waiting',
      'Skipped',
    ]);
  });
});
