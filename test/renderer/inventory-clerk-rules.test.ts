import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { readQuantity, readStatus } from '../../src/renderer/src/screens/inventory/cellRules';
import {
  clerkCellMessage,
  clerkSummary,
  columnName,
} from '../../src/renderer/src/screens/inventory/clerkMessages';
import {
  documentFileName,
  readableDocument,
} from '../../src/renderer/src/screens/inventory/documentFormat';
import {
  errorReportCsv,
  nextProblem,
  problemCells,
  templateCsv,
} from '../../src/renderer/src/screens/inventory/problemList';
import { statusRetailersOf } from '../../src/renderer/src/screens/inventory/inventoryQueries';
import { readCsvText } from '../../src/renderer/src/screens/inventory/readCsv';
import { checkSheet } from '../../src/renderer/src/screens/inventory/rowCheck';
import { sameRows, sendRisks } from '../../src/renderer/src/screens/inventory/sendGuard';
import {
  sheetFromTable,
  withCellEdit,
  type ParsedSheet,
} from '../../src/renderer/src/screens/inventory/sheetRows';

const today = '2030-06-15';

function sheetOf(table: unknown[][], source = 'stock.csv'): ParsedSheet {
  const result = sheetFromTable(table, source);
  if (!result.ok) throw new Error(result.message);
  return result.sheet;
}

/** The clerk's words for every problem, keyed "row column". */
function clerkProblems(sheet: ParsedSheet, statusRetailers?: string[]) {
  const check = checkSheet(sheet, { today, statusRequiredAtZero: !!statusRetailers?.length });
  return Object.fromEntries(
    problemCells(check, { sheet, statusRetailers }).map((cell) => [
      `${cell.row} ${cell.column}`,
      cell.problems,
    ]),
  );
}

describe('row numbering: the numbers the spreadsheet shows', () => {
  it('the first data row under a header on line 1 is row 2; blank rows keep their numbers', async () => {
    const rows = await readCsvText('sku,qty\nA,1\n\nB,2\n,\nC,3\n');
    const sheet = sheetOf(rows);
    expect(sheet.rowNumbers).toEqual([2, 4, 6]);
    expect(sheet.cells.map((c) => c.sku)).toEqual(['A', 'B', 'C']);
  });

  it('an XLSX sheet whose header is on row 3 numbers its first data row 4', () => {
    const sheet = sheetOf([[null, null], [], ['Item Number', 'Qty'], ['A', 1], ['B', 2]]);
    expect(sheet.rowNumbers).toEqual([4, 5]);
  });

  it('a duplicate SKU names the row its first copy is on, as the table shows it', () => {
    // Row 3 holds the first SKU-2; row 5 repeats it (a blank line 4 between them).
    const sheet = sheetOf([['sku', 'qty'], ['SKU-1', '1'], ['SKU-2', '2'], [], ['SKU-2', '3']]);
    expect(clerkProblems(sheet)).toEqual({
      '5 SKU': ['SKU “SKU-2” in row 5 is already in row 3: each SKU can be listed once.'],
    });
  });
});

describe('quantities: one rule for CSV text, XLSX numbers and edits, never rounded', () => {
  it.each([
    [7, 7],
    ['7', 7],
    [' 120 ', 120],
    ['1,200', 1200],
    ['12,345,678', 12345678],
    [0, 0],
    ['999,999,999', 999999999],
  ])('%j is %j', (cell, value) => {
    expect(readQuantity(cell)).toEqual({ ok: true, value });
  });

  it.each([[7.5], ['7.5'], ['3.0'], ['1,20'], ['1.200'], ['abc'], [-1], ['-1'], [1e9], [true]])(
    '%j is refused',
    (cell) => {
      expect(readQuantity(cell).ok).toBe(false);
    },
  );

  it('an XLSX 7.5 is a problem in its cell and is not sent as 7', () => {
    const sheet = sheetOf([
      ['Item Number', 'Quantity'],
      ['XL-1', 7.5],
      ['XL-2', '3.0'],
      ['XL-3', '1,200'],
    ]);
    expect(sheet.items[2]).toEqual({ sku: 'XL-3', available_quantity: 1200 });
    expect(sheet.items[0]!.available_quantity).toBe(7.5);
    expect(clerkProblems(sheet)).toEqual({
      '2 Quantity': [
        'Quantity in row 2 must be a whole number; 7.5 has a fraction, and quantities are never rounded.',
      ],
      '3 Quantity': [
        'Quantity in row 3 must be a whole number such as 7 or 1,200; “3.0” has a decimal point, and quantities are never rounded.',
      ],
    });
  });
});

describe('status spellings', () => {
  it.each([
    ['DISCONTINUED', 'DISCONTINUED'],
    ['discontinued', 'DISCONTINUED'],
    [' Discontinued ', 'DISCONTINUED'],
    ['Temporarily unavailable', 'TEMPORARILY_UNAVAILABLE'],
    ['temporarily_unavailable', 'TEMPORARILY_UNAVAILABLE'],
    ['temp unavailable', 'TEMPORARILY_UNAVAILABLE'],
    ['Temp-Unavailable', 'TEMPORARILY_UNAVAILABLE'],
    ['Backordered', 'TEMPORARILY_UNAVAILABLE'],
    ['', null],
  ])('%j reads as %j', (cell, value) => {
    expect(readStatus(cell)).toEqual({ ok: true, value });
  });

  it('ambiguous or unknown words are refused, not guessed', () => {
    expect(readStatus('out of stock')).toEqual({
      ok: false,
      problem:
        '“out of stock” could mean Discontinued or Temporarily unavailable: write the one you mean',
    });
    expect(readStatus('gone').ok).toBe(false);
  });

  it('the item carries the service’s word, and a status word at 0 passes', () => {
    const sheet = sheetOf([
      ['sku', 'qty', 'Stock Status', 'ETA'],
      ['A', '0', 'temp unavailable', '2030-07-01'],
      ['B', '0', 'Discontinued', ''],
    ]);
    expect(sheet.items[0]!.status).toBe('TEMPORARILY_UNAVAILABLE');
    expect(sheet.items[1]!.status).toBe('DISCONTINUED');
    expect(clerkProblems(sheet, ['Peak Sports'])).toEqual({});
  });
});

describe('clerk messages', () => {
  const sheet = sheetOf([
    ['SKU', 'Qty', 'Status', 'Back In Stock'],
    ['A', '-3', '', ''],
    ['B', '0', '', ''],
    ['C', '5', 'discontinued', ''],
    ['D', '0', 'temporarily unavailable', '2030-01-01'],
    ['E', '0', 'temporarily unavailable', ''],
  ]);

  it('name the column as the file does and the spreadsheet row, in plain words', () => {
    expect(clerkProblems(sheet, ['Peak Sports'])).toEqual({
      '2 Qty': ['Qty in row 2 cannot be below 0 (“-3”).'],
      '3 Status': [
        'Status in row 3 is needed: the quantity is 0 and Peak Sports gets a direct feed, which must say why. Write Discontinued or Temporarily unavailable.',
      ],
      '4 Status': [
        'Status in row 4 must be empty: the quantity is above 0, so the item is in stock.',
      ],
      '5 Back In Stock': [
        'Back In Stock in row 5 (2030-01-01) is in the past: use today or a later date.',
      ],
      '6 Back In Stock': [
        'Back In Stock in row 6 is needed for a temporarily unavailable item: the date it is expected back, e.g. 2030-12-31.',
      ],
    });
  });

  it('name a column the template writes as a machine name in clerk words (issue 19)', () => {
    const template = sheetOf([
      ['sku', 'available_quantity', 'status', 'estimated_back_in_stock_date'],
      ['A', '-3', '', ''],
    ]);
    expect(columnName(template, 'available_quantity')).toBe('Quantity');
    expect(columnName(template, 'estimated_back_in_stock_date')).toBe('Back in stock');
    expect(Object.values(clerkProblems(template))).toContainEqual([
      'Quantity in row 2 cannot be below 0 (“-3”).',
    ]);
  });

  it('keep the original text as the detail', () => {
    expect(
      clerkCellMessage('Input should be greater than or equal to 0', 0, 'available_quantity', {
        sheet,
      }),
    ).toEqual({
      text: 'Qty in row 2 is below 0 (“-3”): use 0 or more.',
      detail: 'Input should be greater than or equal to 0',
    });
    // A message the screen has no words for is shown as it is, without a detail.
    expect(clerkCellMessage('Something new', 0, 'sku', { sheet })).toEqual({
      text: 'Something new',
      detail: null,
    });
  });

  it('word delivery errors and headlines for clerks', () => {
    // A headline the screen has no words of its own for is worded as a delivery error.
    const fileError = clerkSummary("EEXIST: file already exists, mkdir '/data/outbox/r1'");
    expect(fileError.text).toMatch(/The file could not be written into the connection’s folder/);
    expect(fileError.detail).toBe("EEXIST: file already exists, mkdir '/data/outbox/r1'");
    expect(clerkSummary('Inventory advice validation failed').text).toMatch(/marked in the table/);
  });
});

describe('cells edited in place', () => {
  it('are read by the same rules and re-checked', () => {
    const sheet = sheetOf([
      ['sku', 'qty'],
      ['A', 7.5],
    ]);
    expect(checkSheet(sheet, { today }).cells.size).toBe(1);
    const fixed = withCellEdit(sheet, 0, 'available_quantity', '1,500');
    expect(fixed.cells[0]).toEqual({ sku: 'A', available_quantity: '1,500' });
    expect(fixed.items[0]).toEqual({ sku: 'A', available_quantity: 1500 });
    expect(checkSheet(fixed, { today }).cells.size).toBe(0);
    // Emptying a cell removes the value.
    expect(withCellEdit(fixed, 0, 'available_quantity', ' ').cells[0]).toEqual({ sku: 'A' });
    // The original is untouched.
    expect(sheet.cells[0]!.available_quantity).toBe(7.5);
  });
});

describe('problem list, next problem and the error report', () => {
  const sheet = sheetOf([
    ['SKU', 'Qty', 'Status'],
    ['=HYPERLINK("x")', 'abc', ''],
    ['B', '3', 'gone'],
    ['C', '4', ''],
  ]);
  const check = checkSheet(sheet, { today });
  const cells = problemCells(check, { sheet });

  it('go in table order and wrap around', () => {
    expect(cells.map((c) => `${c.row} ${c.field}`)).toEqual(['2 available_quantity', '3 status']);
    expect(nextProblem(cells, null)?.row).toBe(2);
    expect(nextProblem(cells, { index: 0, field: 'available_quantity' })?.row).toBe(3);
    expect(nextProblem(cells, { index: 1, field: 'status' })?.row).toBe(2);
    expect(nextProblem(cells, { index: 0, field: 'sku' })?.field).toBe('available_quantity');
    expect(nextProblem([], null)).toBeNull();
  });

  it('the CSV has row, column, value and problem, and spreadsheet formulas are escaped', () => {
    const csv = errorReportCsv(cells, ['A general problem']);
    const parsed = Papa.parse<string[]>(csv.trim()).data;
    expect(parsed).toEqual([
      ['row', 'column', 'value', 'problem'],
      ['2', 'Qty', 'abc', 'Qty in row 2 must be a whole number such as 7 or 1,200; “abc” is not.'],
      [
        '3',
        'Status',
        'gone',
        'Status in row 3 must be Discontinued or Temporarily unavailable, or empty; “gone” is not a status.',
      ],
      ['', '', '', 'A general problem'],
    ]);
    // The SKU cell had no problem; had it one, its formula would be escaped:
    const withFormula = errorReportCsv(
      [{ index: 0, field: 'sku', row: 2, column: 'SKU', value: '=1+1', problems: ['x'] }],
      [],
    );
    expect(withFormula).toContain(`"'=1+1"`);
  });

  it('the template reads back as a clean sheet', async () => {
    const template = sheetOf(await readCsvText(templateCsv(today)), 'template.csv');
    expect(template.items).toHaveLength(3);
    expect(checkSheet(template, { today, statusRequiredAtZero: true }).cells.size).toBe(0);
  });
});

describe('send guard', () => {
  const sent = [
    { sku: 'A', available_quantity: 1200, status: null, estimated_back_in_stock_date: null },
    {
      sku: 'B',
      available_quantity: 0,
      status: 'DISCONTINUED' as const,
      estimated_back_in_stock_date: null,
    },
  ];

  it('the same rows in another order and spelling are the same file', () => {
    const sheet = sheetOf([
      ['sku', 'qty', 'status'],
      [' B ', '0', 'discontinued'],
      ['A', '1,200', ''],
    ]);
    expect(sameRows(sheet.items, sent)).toBe(true);
    expect(sameRows(withCellEdit(sheet, 1, 'available_quantity', '1201').items, sent)).toBe(false);
    expect(sameRows(sheet.items.slice(0, 1), sent)).toBe(false);
  });

  it('lists the retailers where SKUs vanish or go to 0', () => {
    const connection = (retailer: string, dropped: string[], zero: string[]) => ({
      connection_id: '0c000000-0000-4000-8000-000000000001',
      kind: 'DIRECT_API' as const,
      organization_id: '0a000000-0000-4000-8000-000000000001',
      organization_name: 'Org',
      retailer_id: '0e000000-0000-4000-8000-000000000001',
      retailer_name: retailer,
      document: null,
      error: null,
      baseline: null,
      changes: { dropped_skus: dropped, new_zero_skus: zero, big_swings: [], added_skus: [] },
    });
    expect(
      sendRisks({
        item_count: 2,
        connections: [connection('Calm', [], []), connection('Peak', ['X'], ['Y'])],
      }),
    ).toEqual([{ retailer: 'Peak', vanishing: ['X'], goingToZero: ['Y'] }]);
  });
});

describe('readable documents', () => {
  it('one X12 segment per line, terminators kept', () => {
    const isa =
      'ISA*00*          *00*          *ZZ*SENDER1        *ZZ*RECEIVER1      *261122*0420*U*00401*000000001*0*T*>~';
    expect(isa.length).toBe(106);
    const body = `${isa}GS*IB*S*R*20261122*0420*1*X*004010~ST*846*0001~SE*2*0001~GE*1*1~IEA*1*000000001~`;
    const lines = readableDocument(body, 'application/edi-x12').split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(isa);
    expect(documentFileName(body, 'application/edi-x12')).toBe('846_000000001.x12');
    expect(lines[2]).toBe('ST*846*0001~');
    // Already one per line: unchanged.
    expect(readableDocument(lines.join('\n'), 'application/edi-x12')).toBe(lines.join('\n'));
  });

  it('pretty JSON, and anything unparseable as it is', () => {
    expect(readableDocument('{"a":1,"b":[2]}', 'application/json')).toBe(
      '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}',
    );
    expect(readableDocument('{oops', 'application/json')).toBe('{oops');
    expect(documentFileName('{"idempotency_key":"5d00-1","items":[]}', 'application/json')).toBe(
      'feed_5d00-1.json',
    );
    expect(documentFileName('{oops', 'application/json')).toBe('document.json');
  });
});

describe('the list as a whole', () => {
  it('more than 1000 rows: the limit in a clerk’s words', () => {
    const sheet = sheetOf([
      ['sku', 'qty'],
      ...Array.from({ length: 1001 }, (_, i) => [`S-${i}`, '1']),
    ]);
    expect(checkSheet(sheet, { today }).general).toEqual([
      'These are 1,001 rows; at most 1,000 can be sent at once. Split the file into parts of up to 1,000 rows.',
    ]);
  });
});

describe('who needs a status at 0', () => {
  it('the enabled direct feeds, each retailer once, by name', () => {
    const connection = (
      retailer_name: string,
      kind: 'EDI_846' | 'DIRECT_API',
      enabled: boolean,
    ) => ({
      connection_id: '0c000000-0000-4000-8000-000000000001',
      retailer_id: '0e000000-0000-4000-8000-000000000001',
      retailer_name,
      kind,
      enabled,
    });
    expect(
      statusRetailersOf([
        connection('Peak Sports', 'DIRECT_API', true),
        connection('Big Box Retail', 'EDI_846', true),
        connection('Harbor Goods', 'DIRECT_API', false),
        connection('Apex', 'DIRECT_API', true),
        connection('Peak Sports', 'DIRECT_API', true),
      ]),
    ).toEqual(['Apex', 'Peak Sports']);
  });
});
