import { describe, expect, it } from 'vitest';
import { normaliseHeader, readCsv } from '../../src/server/claims/csv';
import { dateCell, moneyCell, unitsCell } from '../../src/server/claims/csv-values';
import { posMetricColumns } from '../../src/server/claims/pos-values';
import { chargebackState } from '../../src/server/claims/status';

describe('CSV cells', () => {
  it.each([
    ['1234.56', 1234.56],
    ['$1,234.50', 1234.5],
    [' -12.00 ', -12],
    ['(12.5)', -12.5],
    ['.5', 0.5],
    ['0', 0],
  ])('money %s is %s', (text, value) => {
    expect(moneyCell(text)).toEqual({ ok: true, value });
  });

  it.each(['12.345', 'ten', '1.2.3', '$', '--1', '1e3'])('money %s is refused', (text) => {
    expect(moneyCell(text).ok).toBe(false);
  });

  it('units: whole numbers with thousands commas; fractions refused', () => {
    expect(unitsCell('1,000')).toEqual({ ok: true, value: 1000 });
    expect(unitsCell('12.0')).toEqual({ ok: true, value: 12 });
    expect(unitsCell('-3')).toEqual({ ok: true, value: -3 });
    expect(unitsCell('12.5').ok).toBe(false);
  });

  it('dates: YYYY-MM-DD or M/D/YYYY, real days only', () => {
    expect(dateCell('2026-02-28')).toEqual({ ok: true, value: '2026-02-28' });
    expect(dateCell('2/7/2026')).toEqual({ ok: true, value: '2026-02-07' });
    expect(dateCell('02/29/2026').ok).toBe(false);
    expect(dateCell('7.2.2026').ok).toBe(false);
  });

  it('headers match whatever their case and punctuation', () => {
    expect(normaliseHeader('\uFEFFPO #')).toBe('po_number');
    expect(normaliseHeader('  Margin %')).toBe('margin_percent');
    expect(normaliseHeader('Sales $')).toBe('sales');
  });

  it('reads quoted line breaks as one row and keeps spreadsheet row numbers across blank lines', () => {
    const table = readCsv<'sku' | 'units'>(
      'sku,units\n"A\nB",1\n\n,\nC,2\n',
      { sku: [], units: [] },
      ['sku'],
    );
    expect(table.problems).toEqual([]);
    expect(table.records).toEqual([
      { row: 2, cells: { sku: 'A\nB', units: '1' } },
      { row: 5, cells: { sku: 'C', units: '2' } },
    ]);
  });
});

describe('chargebackState', () => {
  it.each([
    ['Pending Review', '2026-03-14', [true, true]],
    ['Pending Review', '2026-03-15', [false, false]],
    ['Submitting', '2026-03-01', [true, true]],
    ['Won', '2026-03-01', [false, true]],
    ['Lost', null, [false, true]],
    ['Not Disputed', '2026-03-01', [true, true]],
    ['Not Disputed', '2026-03-15', [false, false]],
    ['Not Disputed', null, [false, false]],
    ['Expired', '2026-04-01', [true, true]],
    ['Ready to Dispute', null, [false, false]],
  ] as const)('%s with deadline %s on 2026-03-15', (status, deadline, [expired, closed]) => {
    expect(chargebackState(status, deadline, '2026-03-15')).toEqual({
      is_expired: expired,
      closed,
    });
  });
});

describe('POS figures', () => {
  it('derives net units, gross margin and margin percent when absent, keeps given ones', () => {
    const base = {
      units_sold: 3,
      revenue: 10.01,
      cogs: 3.34,
      returns: 1,
      inventory_units: 0,
      inventory_cost: 0,
      damaged_inventory_units: 0,
      damaged_inventory_cost: 0,
      on_order_units: 0,
      on_order_cost: 0,
    };
    expect(posMetricColumns(base)).toMatchObject({
      revenue_cents: 1001,
      cogs_cents: 334,
      net_units: 2,
      gross_margin_cents: 667,
      margin_percent: 66.63,
    });
    expect(
      posMetricColumns({ ...base, net_units: 5, gross_margin: 1, margin_percent: 9.5 }),
    ).toMatchObject({ net_units: 5, gross_margin_cents: 100, margin_percent: 9.5 });
    expect(posMetricColumns({ ...base, revenue: 0, cogs: 0 }).margin_percent).toBe(0);
  });
});
