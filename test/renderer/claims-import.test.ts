import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/renderer/src/api/ApiError';
import {
  MAX_CSV_BYTES,
  checkCsvFile,
  csvHasColumn,
  looksBinary,
  importRefusalOf,
  importSummaryOf,
} from '../../src/renderer/src/screens/claims/importReport';

const refused = (errors: unknown, extra: Record<string, unknown> = {}) =>
  new ApiError(
    400,
    'INVALID_REQUEST',
    'CSV file rejected: 2 rows with problems; nothing was imported',
    {
      message: 'CSV file rejected: 2 rows with problems; nothing was imported',
      error: { code: 'INVALID_REQUEST', errors, ...extra },
    },
  );

describe('import rejection report', () => {
  it('lists each problem with its CSV row, column and reason, in row order', () => {
    const refusal = importRefusalOf(
      refused([
        { row: 5, column: 'Amount', reason: 'must be an amount like 12.50' },
        { row: 3, column: 'Chargeback Date', reason: 'must be a date YYYY-MM-DD or MM/DD/YYYY' },
        { row: 3, column: 'Amount', reason: 'is required' },
      ]),
    );
    expect(refusal.message).toBe('CSV file rejected: 2 rows with problems; nothing was imported');
    expect(refusal.truncated).toBe(false);
    expect(refusal.lines.map(({ row, column, reason }) => [row, column, reason])).toEqual([
      [3, 'Chargeback Date', 'Must be a date YYYY-MM-DD or MM/DD/YYYY'],
      [3, 'Amount', 'Is required'],
      [5, 'Amount', 'Must be an amount like 12.50'],
    ]);
    expect(new Set(refusal.lines.map((line) => line.key)).size).toBe(3);
  });

  it('names the whole row when a problem has no column (a repeated row)', () => {
    const refusal = importRefusalOf(
      refused([
        { row: 4, column: '', reason: 'repeats row 2 (same chargeback number and PO number)' },
      ]),
    );
    expect(refusal.lines).toEqual([
      {
        key: '4-0',
        row: 4,
        column: '(whole row)',
        reason: 'Repeats row 2 (same chargeback number and PO number)',
      },
    ]);
  });

  it('says when the service listed only the first problems', () => {
    const refusal = importRefusalOf(
      refused([{ row: 2, column: 'SKU', reason: 'x' }], { truncated: true }),
    );
    expect(refusal.truncated).toBe(true);
  });

  it('shows only the message for refusals without rows: rights, unknown brand, network', () => {
    expect(importRefusalOf(new ApiError(403, 'UNAUTHORIZED', 'Unauthorized'))).toEqual({
      message: 'Unauthorized',
      lines: [],
      truncated: false,
    });
    expect(
      importRefusalOf(new ApiError(400, 'INVALID_REQUEST', 'Invalid import request', {})).lines,
    ).toEqual([]);
    expect(importRefusalOf(new ApiError(0, 'NETWORK_ERROR', 'x')).message).toBe(
      'Could not reach the service. Check that it is running, then try again.',
    );
    expect(importRefusalOf(new Error('boom')).message).toBe(
      'Something went wrong. Please try again.',
    );
  });
});

describe('import summary', () => {
  it('counts rows, new and updated', () => {
    expect(importSummaryOf({ rows: 12, created: 10, updated: 2 })).toBe(
      '12 rows imported: 10 new, 2 updated.',
    );
    expect(importSummaryOf({ rows: 1, created: 0, updated: 1 })).toBe(
      '1 row imported: 0 new, 1 updated.',
    );
  });
});

describe('CSV file check before upload', () => {
  it('takes .csv (and text) files that are not empty and fit the service limit', () => {
    expect(checkCsvFile({ name: 'Chargebacks.CSV', size: 10, type: '' })).toEqual({ ok: true });
    expect(checkCsvFile({ name: 'export', size: 10, type: 'text/csv' })).toEqual({ ok: true });
    expect(checkCsvFile({ name: 'a.csv', size: MAX_CSV_BYTES, type: '' })).toEqual({ ok: true });
  });

  it('refuses other files, empty files and files over 10 MB, naming the file', () => {
    expect(
      checkCsvFile({ name: 'report.xlsx', size: 10, type: 'application/vnd.ms-excel' }),
    ).toEqual({
      ok: false,
      reason: 'This is not a CSV file: report.xlsx. Choose the .csv export.',
    });
    expect(checkCsvFile({ name: 'deduction.pdf', size: 10, type: 'application/pdf' })).toEqual({
      ok: false,
      reason: 'This is not a CSV file: deduction.pdf. Choose the .csv export.',
    });
    expect(checkCsvFile({ name: 'a.csv', size: 0, type: 'text/csv' })).toEqual({
      ok: false,
      reason: 'a.csv is empty.',
    });
    expect(checkCsvFile({ name: 'a.csv', size: MAX_CSV_BYTES + 1, type: 'text/csv' })).toEqual({
      ok: false,
      reason: 'a.csv is larger than 10 MB. Split it into smaller files.',
    });
  });
});

describe('retailer column in the file', () => {
  it('is found whatever its spelling, quoting or separator', () => {
    expect(csvHasColumn('chargeback_id,retailer_id\nA,B', 'retailer_id')).toBe(true);
    expect(csvHasColumn('\uFEFF"Retailer ID";Amount\r\n', 'retailer_id')).toBe(true);
    expect(csvHasColumn('sku\tRetailer-Id\n', 'retailer_id')).toBe(true);
  });

  it('is not taken from a data row or a longer name', () => {
    expect(csvHasColumn('chargeback_id,amount\nretailer_id,1', 'retailer_id')).toBe(false);
    expect(csvHasColumn('retailer_id_old,amount', 'retailer_id')).toBe(false);
    expect(csvHasColumn('', 'retailer_id')).toBe(false);
  });
});

describe('looksBinary', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it('tells a PDF, a zip (.xlsx) or NUL bytes from text, whatever the name says', () => {
    expect(looksBinary(bytes('%PDF-1.7\n%âãÏÓ'))).toBe(true);
    expect(looksBinary(new Uint8Array([0x50, 0x4b, 3, 4, 20, 0]))).toBe(true);
    expect(looksBinary(new Uint8Array([0x61, 0x2c, 0, 0x62]))).toBe(true);
    expect(looksBinary(bytes('chargeback_id,amount\r\nCB-1,12.50\r\n'))).toBe(false);
    expect(looksBinary(bytes('\uFEFFsku;units\n'))).toBe(false);
    expect(looksBinary(new Uint8Array())).toBe(false);
  });
});
