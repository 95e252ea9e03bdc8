import { describe, expect, it } from 'vitest';
import { fileNameOf } from '../../src/renderer/src/api/claims';
import {
  CHARGEBACK_PAGE_SIZE,
  chargebackRequestOf,
  chargebacksSearchSchema,
  isChargebackFiltered,
  toggleStatus,
} from '../../src/renderer/src/screens/chargebacks/chargebacksSearch';
import { dateRangeProblem } from '../../src/renderer/src/components/dateRange';
import { visibilityFrom } from '../../src/renderer/src/screens/claims/columnVisibility';
import {
  POS_PAGE_SIZE,
  posRequestOf,
  posSearchSchema,
} from '../../src/renderer/src/screens/pos/posSearch';

const RETAILER = '0e000000-0000-4000-8000-000000000001';

describe('chargebacks URL state', () => {
  it('keeps every filter and asks the service for exactly them', () => {
    const search = chargebacksSearchSchema.parse({
      retailer: RETAILER,
      po: 'BB4500527',
      number: 77120,
      status: ['Won', 'Pending Review'],
      settled: 'no',
      from: '2026-11-01',
      to: '2026-11-30',
      page: 2,
    });
    expect(search.number).toBe('77120');
    expect(chargebackRequestOf(search)).toEqual({
      retailer_id: RETAILER,
      po_number: 'BB4500527',
      chargeback_id: '77120',
      // The interface's order, whatever order the URL had.
      dispute_status: 'Won,Pending Review',
      settled: 'false',
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      page: 2,
      page_size: CHARGEBACK_PAGE_SIZE,
    });
    expect(isChargebackFiltered(search)).toBe(true);
  });

  it('drops values that do not fit instead of failing', () => {
    const search = chargebacksSearchSchema.parse({
      retailer: 'not-a-uuid',
      status: ['Won', 'Maybe'],
      settled: 'perhaps',
      from: '2026-02-30',
      to: 'tomorrow',
      page: 1,
      po: '   ',
    });
    expect(search).toEqual({ status: ['Won'] });
    expect(chargebacksSearchSchema.parse({ status: 'Lost' }).status).toEqual(['Lost']);
    expect(chargebacksSearchSchema.parse({ status: ['Maybe'] }).status).toBeUndefined();
    const empty = chargebacksSearchSchema.parse({});
    expect(isChargebackFiltered(empty)).toBe(false);
    expect(chargebackRequestOf(empty)).toEqual({ page: 1, page_size: CHARGEBACK_PAGE_SIZE });
  });

  it('turns statuses on and off, back to page 1, and clears the list when none is left', () => {
    const one = toggleStatus({ page: 3 }, 'Submitting');
    expect(one).toEqual({ status: ['Submitting'], page: undefined });
    const two = toggleStatus(one, 'Won');
    expect(two.status).toEqual(['Won', 'Submitting']);
    expect(toggleStatus(toggleStatus(two, 'Won'), 'Submitting').status).toBeUndefined();
  });
});

describe('POS URL state', () => {
  it('keeps retailer and dates; the page asks the service for its rows', () => {
    const search = posSearchSchema.parse({ retailer: RETAILER, from: '2026-11-01', page: 3 });
    expect(posRequestOf(search)).toEqual({
      retailer_id: RETAILER,
      start_date: '2026-11-01',
      end_date: undefined,
      page: 3,
      page_size: POS_PAGE_SIZE,
    });
    expect(posSearchSchema.parse({ from: '11/01/2026', page: 0 })).toEqual({});
  });

  it('says "From is after To" when the start date is after the end date', () => {
    expect(dateRangeProblem('2026-11-30', '2026-11-01')).toBe('From is after To.');
    expect(dateRangeProblem('2026-11-01', '2026-11-01')).toBeNull();
    expect(dateRangeProblem(undefined, '2026-11-01')).toBeNull();
  });
});

describe('download file name', () => {
  it('prefers the exact UTF-8 name and keeps only its last path part', () => {
    expect(
      fileNameOf(
        `attachment; filename="dispute-packet-_.zip"; filename*=UTF-8''dispute-packet-%C3%A9.zip`,
      ),
    ).toBe('dispute-packet-é.zip');
    expect(fileNameOf('attachment; filename="dispute-packet-BBR-77120.zip"')).toBe(
      'dispute-packet-BBR-77120.zip',
    );
    expect(fileNameOf('attachment; filename=../../evil.zip')).toBe('evil.zip');
    expect(fileNameOf('attachment')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});

describe('remembered column choices', () => {
  const columns = [
    { id: 'sku', label: 'SKU' },
    { id: 'cogs', label: 'Cost' },
  ];
  it('apply stored booleans for known columns and fall back to the defaults otherwise', () => {
    expect(
      visibilityFrom({ cogs: true, gone: false, sku: 'no' }, columns, { cogs: false }),
    ).toEqual({
      cogs: true,
    });
    expect(visibilityFrom(null, columns, { cogs: false })).toEqual({ cogs: false });
    expect(visibilityFrom('junk', columns, {})).toEqual({});
  });
});
