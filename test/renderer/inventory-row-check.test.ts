import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/renderer/src/api/ApiError';
import { checkRows, mergeChecks } from '../../src/renderer/src/screens/inventory/rowCheck';
import { serverIssuesOf } from '../../src/renderer/src/screens/inventory/serverProblems';

const today = '2030-06-15';
const cellsOf = (check: ReturnType<typeof checkRows>) => Object.fromEntries(check.cells);

describe('checkRows', () => {
  it('puts field problems on their cells, as the shared schema words them', () => {
    const check = checkRows(
      [
        { sku: 'A', available_quantity: '5' },
        { sku: 'B', available_quantity: '5.5' },
        { sku: 'C', available_quantity: 'abc', status: 'gone' },
        { available_quantity: 5.5 },
        { sku: 'A', available_quantity: 1 },
      ],
      { today },
    );
    expect([...check.cells.keys()].sort()).toEqual([1, 2, 3, 4]);
    expect(check.cells.get(1)?.available_quantity?.[0]).toMatch(/whole number/);
    expect(check.cells.get(2)?.status?.[0]).toMatch(/DISCONTINUED/);
    expect(check.cells.get(3)).toEqual({ sku: ['Field required'] });
    expect(check.cells.get(4)?.sku?.[0]).toMatch(/Duplicate SKU 'A'/);
    expect(check.general).toEqual([]);
  });

  it('applies the row rules to rows without field problems, with their own row numbers', () => {
    const check = checkRows(
      [
        { sku: 'A', available_quantity: 'x' },
        { sku: 'B', available_quantity: 3, status: 'discontinued' },
        { sku: 'C', available_quantity: 0, status: 'TEMPORARILY_UNAVAILABLE' },
        {
          sku: 'D',
          available_quantity: 0,
          status: 'temporarily_unavailable',
          estimated_back_in_stock_date: '2030-06-14',
        },
        { sku: 'E', available_quantity: 0 },
      ],
      { today },
    );
    expect(cellsOf(check)).toEqual({
      0: { available_quantity: [expect.stringMatching(/whole number/)] },
      1: { status: ['status must be empty when available_quantity is greater than 0'] },
      2: {
        estimated_back_in_stock_date: [
          'estimated_back_in_stock_date is required when status is TEMPORARILY_UNAVAILABLE',
        ],
      },
      3: { estimated_back_in_stock_date: ['estimated_back_in_stock_date must not be in the past'] },
    });
    // A 0 without status is for the service to judge (it knows the connections).
    expect(checkRows([{ sku: 'E', available_quantity: 0 }], { today }).cells.size).toBe(0);
    expect(
      checkRows([{ sku: 'E', available_quantity: 0 }], { today, statusRequiredAtZero: true }).cells
        .size,
    ).toBe(1);
  });

  it('reports list problems (more than 1000 rows) as general problems', () => {
    const items = Array.from({ length: 1001 }, (_, i) => ({ sku: `S${i}`, available_quantity: 1 }));
    const check = checkRows(items, { today });
    expect(check.cells.size).toBe(0);
    expect(check.general).toEqual(['items: List should have at most 1000 items']);
  });

  it('validates 1000 rows quickly', () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      sku: `S${i}`,
      available_quantity: `${i}`,
    }));
    const started = performance.now();
    expect(checkRows(items, { today }).cells.size).toBe(0);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('serverIssuesOf', () => {
  const invalid = (body: unknown) =>
    new ApiError(400, 'INVALID_REQUEST', (body as { message: string }).message, body);

  it('maps error.details loc onto cells', () => {
    const issues = serverIssuesOf(
      invalid({
        message: 'Validation failed',
        error: {
          code: 'INVALID_REQUEST',
          details: [
            { loc: ['items', 2, 'available_quantity'], msg: 'bad qty', type: 'int_parsing' },
            { loc: ['items'], msg: 'List should have at least 1 item', type: 'too_short' },
          ],
        },
      }),
    );
    expect(issues.message).toBe('Validation failed');
    expect(cellsOf(issues.check)).toEqual({ 2: { available_quantity: ['bad qty'] } });
    expect(issues.check.general).toEqual(['items: List should have at least 1 item']);
  });

  it('maps the 846 string variant and error.errors rows onto cells', () => {
    const details = serverIssuesOf(
      invalid({
        message: 'Validation failed',
        error: {
          code: 'INVALID_REQUEST',
          details: 'items.0.sku: Field required; items.3.status: bad',
        },
      }),
    );
    expect(cellsOf(details.check)).toEqual({
      0: { sku: ['Field required'] },
      3: { status: ['bad'] },
    });

    const rows = serverIssuesOf(
      invalid({
        message: 'Inventory advice validation failed',
        error: {
          code: 'INVALID_REQUEST',
          errors: [{ row_index: 1, field: 'status', message: 'status is required' }],
        },
      }),
    );
    expect(rows.message).toBe('Inventory advice validation failed');
    expect(cellsOf(rows.check)).toEqual({ 1: { status: ['status is required'] } });
  });

  it('keeps only the message for other failures', () => {
    const issues = serverIssuesOf(new ApiError(403, 'UNAUTHORIZED', 'Unauthorized', {}));
    expect(issues).toEqual({ message: 'Unauthorized', check: { cells: new Map(), general: [] } });
  });

  it('merges local and server problems without repeating one', () => {
    const local = checkRows([{ sku: 'A', available_quantity: 'x' }], { today });
    const server = serverIssuesOf(
      invalid({
        message: 'Inventory advice validation failed',
        error: {
          code: 'INVALID_REQUEST',
          errors: [{ row_index: 0, field: 'status', message: 'm' }],
        },
      }),
    ).check;
    const merged = mergeChecks(local, server);
    expect(Object.keys(merged.cells.get(0) ?? {}).sort()).toEqual(['available_quantity', 'status']);
    expect(mergeChecks(local, local).cells.get(0)?.available_quantity).toHaveLength(1);
  });
});
