import { describe, expect, it } from 'vitest';
import { analyticsParams } from '../../src/renderer/src/api/analytics';
import {
  ANALYTICS_COLUMNS,
  DEFAULT_VISIBILITY,
} from '../../src/renderer/src/screens/analytics/analyticsColumns';
import { storedVisibilityOf } from '../../src/renderer/src/screens/claims/columnVisibility';

const columnVisibilityOf = (stored: string | null) =>
  storedVisibilityOf(stored, ANALYTICS_COLUMNS, DEFAULT_VISIBILITY);
import {
  ANALYTICS_ROWS_PER_PAGE,
  analyticsSearchSchema,
  hasNextPage,
  orderFilterOf,
  orderMatchingCode,
  searchForFacility,
  searchForOrder,
  searchForPage,
} from '../../src/renderer/src/screens/analytics/analyticsSearch';

const FACILITY = '0f000000-0000-4000-8000-000000000001';
const ORDER = '0d000000-0000-4000-8000-00000000000A';

describe('analytics URL state', () => {
  it('keeps a facility, an order filter and a page from 2', () => {
    expect(
      analyticsSearchSchema.parse({ facility: FACILITY, order: ' PS-SUM-1 ', page: 3 }),
    ).toEqual({ facility: FACILITY, order: 'PS-SUM-1', page: 3 });
  });

  it('drops what does not fit instead of failing', () => {
    expect(analyticsSearchSchema.parse({ facility: 'reno', order: '', page: 1 })).toEqual({
      facility: undefined,
      order: undefined,
      page: undefined,
    });
    expect(analyticsSearchSchema.parse({ page: 2.5, order: 'x'.repeat(101) })).toEqual({
      facility: undefined,
      order: undefined,
      page: undefined,
    });
  });

  it('reads a number the router parsed back as text', () => {
    expect(analyticsSearchSchema.parse({ order: 2611001 }).order).toBe('2611001');
  });

  it('tells an order ID from an order number', () => {
    expect(orderFilterOf(ORDER)).toEqual({ kind: 'id', orderId: ORDER.toLowerCase() });
    expect(orderFilterOf(' PS-SUM-2611001 ')).toEqual({ kind: 'code', code: 'PS-SUM-2611001' });
    expect(orderFilterOf('  ')).toBeNull();
    expect(orderFilterOf(undefined)).toBeNull();
  });

  it('starts over on a new facility, and on a new order filter keeps only the facility', () => {
    expect(searchForFacility(FACILITY)).toEqual({ facility: FACILITY });
    expect(searchForOrder({ facility: FACILITY, page: 4, order: 'A' }, ' B ')).toEqual({
      facility: FACILITY,
      order: 'B',
    });
    expect(searchForOrder({ facility: FACILITY, order: 'A' }, '')).toEqual({
      facility: FACILITY,
      order: undefined,
    });
  });

  it('leaves page 1 out of the address', () => {
    expect(searchForPage({ facility: FACILITY, page: 2 }, 1)).toEqual({
      facility: FACILITY,
      page: undefined,
    });
    expect(searchForPage({ facility: FACILITY }, 2)).toEqual({ facility: FACILITY, page: 2 });
  });

  it('offers a next page only after a full page of 10', () => {
    expect(ANALYTICS_ROWS_PER_PAGE).toBe(10);
    expect(hasNextPage(10)).toBe(true);
    expect(hasNextPage(9)).toBe(false);
    expect(hasNextPage(0)).toBe(false);
  });

  it('asks the service for the page, its size and the order ID', () => {
    expect(
      analyticsParams({ facilityId: FACILITY, page: 2, pageSize: 10, orderId: 'abc' }).toString(),
    ).toBe('page=2&page_size=10&order_id=abc');
    expect(analyticsParams({ facilityId: FACILITY, page: 1, pageSize: 10 }).toString()).toBe(
      'page=1&page_size=10',
    );
  });
});

describe('analytics column choices', () => {
  it('keeps known columns with true or false and ignores the rest', () => {
    expect(
      columnVisibilityOf(JSON.stringify({ brand: false, retailer: true, nope: false, units: 1 })),
    ).toEqual({ created_at: false, brand: false, retailer: true });
  });

  it('treats missing or broken storage as the defaults: every column but Created', () => {
    expect(columnVisibilityOf('[1,2]')).toEqual({ created_at: false });
    expect(columnVisibilityOf(null)).toEqual({ created_at: false });
    expect(columnVisibilityOf('{oops')).toEqual({ created_at: false });
  });

  it("lets the clerk's choice win over the defaults", () => {
    expect(columnVisibilityOf(JSON.stringify({ created_at: true, brand: false }))).toEqual({
      created_at: true,
      brand: false,
    });
  });
});

describe('orderMatchingCode', () => {
  const orders = [
    { id: 'o1', picksheet_code: 'PS-SUM-2611001', po_number: 'BB4500157' },
    { id: 'o2', picksheet_code: 'BB4500157-X', po_number: null },
    { id: 'o3', picksheet_code: 'PS-SUM-2611003', po_number: 'PS-SUM-2611001' },
  ];
  it('finds an order by its picksheet code first, else by its PO number, any capitals', () => {
    expect(orderMatchingCode(orders, 'ps-sum-2611001')).toBe('o1');
    expect(orderMatchingCode(orders, ' bb4500157 ')).toBe('o1');
    expect(orderMatchingCode(orders, 'BB4500157-X')).toBe('o2');
    expect(orderMatchingCode(orders, 'BB450015')).toBeNull();
  });
});
