import { describe, expect, it } from 'vitest';
import {
  fieldForHeader,
  HEADER_EXAMPLES,
  ITEM_FIELDS,
  matchColumns,
  missingRequiredFields,
  normaliseHeader,
} from '../../src/renderer/src/screens/inventory/columns';
import { readCsvText } from '../../src/renderer/src/screens/inventory/readCsv';
import { sheetFromTable } from '../../src/renderer/src/screens/inventory/sheetRows';

describe('header matching', () => {
  it('ignores case, spaces, underscores, hyphens and a BOM', () => {
    expect(normaliseHeader('\uFEFF Back_In-Stock ')).toBe('backinstock');
    for (const header of ['SKU', 'sku', ' Sku ', 'Item', 'Item Number', 'item_number', 'ITEM-NO']) {
      expect(fieldForHeader(header), header).toBe('sku');
    }
    for (const header of [
      'available_quantity',
      'Available Quantity',
      'Qty',
      'quantity',
      'Available',
      'On Hand',
    ]) {
      expect(fieldForHeader(header), header).toBe('available_quantity');
    }
    for (const header of ['status', 'Stock Status']) expect(fieldForHeader(header)).toBe('status');
    for (const header of ['Back In Stock', 'ETA', 'estimated_back_in_stock_date', 'Restock Date']) {
      expect(fieldForHeader(header), header).toBe('estimated_back_in_stock_date');
    }
    expect(fieldForHeader('Description')).toBeUndefined();
    expect(fieldForHeader('Available Date')).toBe('estimated_back_in_stock_date');
  });

  it('maps columns by position; the first of two columns naming a field wins', () => {
    const match = matchColumns(['Description', 'Qty', 'SKU', 'Quantity', '', 'ETA']);
    expect(match.indexes).toEqual({
      available_quantity: 1,
      sku: 2,
      estimated_back_in_stock_date: 5,
    });
    expect(match.headers.sku).toBe('SKU');
    expect(match.ignored).toEqual(['Description', 'Quantity']);
    expect(missingRequiredFields(match)).toEqual([]);
    expect(missingRequiredFields(matchColumns(['Item', 'Colour']))).toEqual(['available_quantity']);
  });
});

describe('rows to request items', () => {
  it('keeps text as text and numbers as numbers, and leaves blank cells out', () => {
    const result = sheetFromTable(
      [
        ['SKU', 'Qty', 'Status', 'Back In Stock', 'Note'],
        ['A-1', '5.5', '', '', 'x'],
        ['A-2', ' 12 ', 'discontinued', '   ', ''],
        ['', '', '', '', ''],
        [12345, 7.5, null, new Date(Date.UTC(2099, 11, 31)), null],
      ],
      'stock.xlsx',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.sheet.source).toBe('stock.xlsx');
    expect(result.sheet.cells).toEqual([
      { sku: 'A-1', available_quantity: '5.5' },
      { sku: 'A-2', available_quantity: ' 12 ', status: 'discontinued' },
      { sku: '12345', available_quantity: 7.5, estimated_back_in_stock_date: '2099-12-31' },
    ]);
    // What is sent: what the screen's rules read; what they refuse stays as it was (and blocks).
    expect(result.sheet.items).toEqual([
      { sku: 'A-1', available_quantity: '5.5' },
      { sku: 'A-2', available_quantity: 12, status: 'DISCONTINUED' },
      { sku: '12345', available_quantity: 7.5, estimated_back_in_stock_date: '2099-12-31' },
    ]);
    expect(result.sheet.rowNumbers).toEqual([2, 3, 5]);
  });

  it('skips leading blank rows before the header', () => {
    const result = sheetFromTable(
      [
        [null, null],
        ['Item number', 'Available'],
        ['B', 1],
      ],
      'x',
    );
    expect(result.ok && result.sheet.items).toEqual([{ sku: 'B', available_quantity: 1 }]);
  });

  it('says which required column is missing and what columns were found', () => {
    const result = sheetFromTable(
      [
        ['Product', 'Colour'],
        ['A', 'red'],
      ],
      'x.csv',
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('No sku and available_quantity column found');
    expect(result.message).toContain('Product, Colour');
    expect(sheetFromTable([], 'x').ok).toBe(false);
    expect(sheetFromTable([['sku', 'qty']], 'x')).toMatchObject({ ok: false });
  });
});

describe('CSV and TSV text', () => {
  it('detects the delimiter, keeps quoted commas, and keeps blank lines in place', async () => {
    // Blank lines stay (as empty rows) so each row keeps its spreadsheet number; the sheet skips them.
    expect(await readCsvText('\uFEFFSKU,Qty\n"A,1",3\n\nB,4\n')).toEqual([
      ['SKU', 'Qty'],
      ['A,1', '3'],
      [''],
      ['B', '4'],
    ]);
    expect(await readCsvText('sku\tqty\r\nA\t1\r\n')).toEqual([
      ['sku', 'qty'],
      ['A', '1'],
    ]);
  });

  it('reads a large text in chunks without losing rows', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `"SKU ${i}, long name",${i}`);
    const rows = await readCsvText(`sku,qty\n${lines.join('\n')}\n`);
    expect(rows).toHaveLength(5001);
    expect(rows[4321]).toEqual(['SKU 4320, long name', '4320']);
  });
});

describe('the column names listed on screen', () => {
  it('are each accepted for their own field', () => {
    for (const field of ITEM_FIELDS) {
      for (const header of HEADER_EXAMPLES[field]) expect(fieldForHeader(header)).toBe(field);
    }
  });
});
