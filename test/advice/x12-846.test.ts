import { describe, it, expect } from 'vitest';
import { X12Parser, type X12Interchange, type X12Segment } from 'node-x12';
import {
  build846,
  X12_CONTENT_TYPE,
  type Build846Input,
} from '../../src/server/inventory/transmission/x12-846';
import type { AdviceLine, EdiSettings } from '../../src/server/inventory/transmission/types';

const edi: EdiSettings = {
  sender_qualifier: 'ZZ',
  sender_id: 'ACMESUPPLY',
  receiver_qualifier: '12',
  receiver_id: 'BIGRETAILER',
  version: '004010',
  usage_indicator: 'T',
};

const line = (sku: string, available_quantity: number): AdviceLine => ({
  sku,
  available_quantity,
  status: null,
  estimated_back_in_stock_date: null,
});

function input(overrides: Partial<Build846Input> = {}): Build846Input {
  return {
    edi,
    interchangeControlNumber: 101,
    groupControlNumber: 101,
    referenceId: 'INV20250115-01',
    createdAt: new Date('2025-01-15T14:30:59Z'),
    shipFrom: { name: 'ACME SUPPLY MAIN DC', code: 'WH01' },
    items: [line('ACM-100', 120), line('ACM-200', 0)],
    ...overrides,
  };
}

/** Independent strict re-parse (ISA width, SE/GE/IEA counts and control numbers). */
function strictParse(text: string): X12Interchange {
  return new X12Parser(true).parse(text) as X12Interchange;
}

function transactionSegments(text: string): X12Segment[] {
  const transaction = strictParse(text).functionalGroups[0]!.transactions[0]!;
  return [transaction.header, ...transaction.segments, transaction.trailer];
}

/** Our own split, using the separators the document declares in the ISA. */
function split(text: string): string[][] {
  const element = text[3]!;
  const terminator = text[105]!;
  expect(text.endsWith(terminator)).toBe(true);
  return text
    .slice(0, -1)
    .split(terminator)
    .map((segment) => segment.split(element));
}

describe('build846', () => {
  it('matches the reference example byte for byte', () => {
    const built = build846(input());
    expect(built.text).toBe(
      'ISA*00*          *00*          *ZZ*ACMESUPPLY     *12*BIGRETAILER    *250115*1430*U*00401*000000101*0*T*>~' +
        'GS*IB*ACMESUPPLY*BIGRETAILER*20250115*1430*101*X*004010~' +
        'ST*846*0001~' +
        'BIA*00*MM*INV20250115-01*20250115*1430~' +
        'N1*SF*ACME SUPPLY MAIN DC*92*WH01~' +
        'LIN*1*SK*ACM-100~QTY*33*120*EA~LIN*2*SK*ACM-200~QTY*33*0*EA~' +
        'CTT*2*120~SE*9*0001~GE*1*101~IEA*1*000000101~',
    );
    expect(built.separators).toEqual({ element: '*', component: '>', segment: '~' });
    expect(built.segmentCount).toBe(9);
    expect(built.fileName).toBe('846_000000101.x12');
    expect(X12_CONTENT_TYPE).toBe('application/edi-x12');
  });

  it('passes the strict parser and its own structural checks', () => {
    const built = build846(input({ vendorId: 'V-778', interchangeControlNumber: 42 }));
    const interchange = strictParse(built.text);
    const segments = split(built.text);
    const byTag = (tag: string) => segments.filter((s) => s[0] === tag);

    expect(built.text.indexOf('~') + 1).toBe(106);
    expect(segments[0]).toHaveLength(17);
    const st = segments.findIndex((s) => s[0] === 'ST');
    const se = segments.findIndex((s) => s[0] === 'SE');
    expect(Number(segments[se]![1])).toBe(se - st + 1);
    expect(built.segmentCount).toBe(se - st + 1);
    expect(segments[se]![2]).toBe(segments[st]![2]);
    expect(byTag('GE')[0]).toEqual(['GE', '1', byTag('GS')[0]![6]]);
    expect(byTag('IEA')[0]).toEqual(['IEA', '1', '000000042']);
    expect(segments[0]![13]).toBe('000000042');
    expect(byTag('REF')[0]).toEqual(['REF', 'VR', 'V-778']);
    for (const segment of segments) expect(segment.at(-1)).not.toBe('');
    expect(built.text).not.toMatch(/\*~/);
    expect(interchange.header.valueOf(13)).toBe('42'); // node-x12 parses ISA13 to an integer
  });

  it('uses a parser that really is strict (sanity check of the oracle)', () => {
    const text = build846(input()).text;
    expect(() => strictParse(text.replace('SE*9*', 'SE*8*'))).toThrow(/SE01/);
    expect(() => strictParse(text.replace('GE*1*101', 'GE*1*102'))).toThrow(/GE02/);
    expect(() => strictParse(text.replace('ACMESUPPLY     ', 'ACMESUPPLY    '))).toThrow(
      /ISA segment is not the correct length/,
    );
  });

  it('takes envelope values from the edi settings', () => {
    const settings: EdiSettings = {
      sender_qualifier: '01',
      sender_id: '123456789',
      receiver_qualifier: '14',
      receiver_id: 'RETAILER-0001',
      version: '005010',
      usage_indicator: 'P',
    };
    const built = build846(input({ edi: settings, groupControlNumber: 7 }));
    strictParse(built.text);
    const [isa, gs] = split(built.text);
    expect(isa!.slice(5, 9)).toEqual(['01', '123456789      ', '14', 'RETAILER-0001  ']);
    expect(isa![11]).toBe('^'); // repetition separator from 00402 on
    expect(isa![12]).toBe('00501');
    expect(isa![14]).toBe('0');
    expect(isa![15]).toBe('P');
    expect(gs).toEqual([
      'GS',
      'IB',
      '123456789',
      'RETAILER-0001',
      '20250115',
      '1430',
      '7',
      'X',
      '005010',
    ]);
    expect(built.separators.repetition).toBe('^');
    expect(built.text.length > 106 && built.text[105]).toBe('~');
  });

  it('counts and totals a 1000-item document', () => {
    const items = Array.from({ length: 1000 }, (_, i) => line(`SKU-${i}`, i % 7));
    const built = build846(input({ items, shipFrom: null }));
    const segments = transactionSegments(built.text);
    const lins = segments.filter((s) => s.tag === 'LIN');
    const qtys = segments.filter((s) => s.tag === 'QTY');
    const ctt = segments.find((s) => s.tag === 'CTT')!;
    const total = items.reduce((sum, item) => sum + item.available_quantity, 0);

    expect(lins).toHaveLength(1000);
    expect(lins[999]!.valueOf(1)).toBe('1000');
    expect(lins[999]!.valueOf(3)).toBe('SKU-999');
    expect(ctt.valueOf(1)).toBe('1000');
    expect(Number(ctt.valueOf(2))).toBe(total);
    expect(qtys.reduce((sum, q) => sum + Number(q.valueOf(2)), 0)).toBe(total);
    expect(built.segmentCount).toBe(segments.length);
    expect(built.segmentCount).toBe(2004); // ST, BIA, 1000 x (LIN, QTY), CTT, SE
  });

  it('switches separators when data contains them and keeps the SKU intact', () => {
    const sku = 'RED*BLUE~1>2';
    const built = build846(input({ items: [line(sku, 5), line('PLAIN', 1)] }));
    const { element, segment, component } = built.separators;
    for (const separator of [element, segment, component]) expect(sku).not.toContain(separator);
    expect(new Set([element, segment, component]).size).toBe(3);

    const lins = transactionSegments(built.text).filter((s) => s.tag === 'LIN');
    expect(lins.map((s) => s.valueOf(3))).toEqual([sku, 'PLAIN']);
    expect(split(built.text).filter((s) => s[0] === 'LIN')[0]).toEqual(['LIN', '1', 'SK', sku]);
  });

  it('avoids separators found in names, ids and the reference too', () => {
    const built = build846(
      input({ referenceId: 'REF|*', shipFrom: { name: 'A~B', code: 'W>1' }, vendorId: 'V^' }),
    );
    strictParse(built.text);
    const values = split(built.text).flat().join('');
    expect(values).toContain('REF|*');
    expect(['*', '~', '>', '|']).not.toContain(built.separators.element);
  });

  it('throws when every candidate separator occurs in the data', () => {
    const everything = '*>~^|!`{}\\@#$%&+=?<;:"';
    expect(() => build846(input({ items: [line(everything, 1)] }))).toThrow(/separator/);
  });

  it('does not transmit status or back-in-stock date', () => {
    const item: AdviceLine = {
      sku: 'OLD-1',
      available_quantity: 0,
      status: 'TEMPORARILY_UNAVAILABLE',
      estimated_back_in_stock_date: '2025-03-01',
    };
    const text = build846(input({ items: [item] })).text;
    expect(text).not.toMatch(/TEMPORARILY|DISCONTINUED|2025-03-01|20250301/);
  });

  it('strips control characters, truncates the reference and omits empty optional parts', () => {
    const built = build846(
      input({
        referenceId: 'R'.repeat(40),
        shipFrom: { name: 'MAIN\r\nDC', code: '' },
        vendorId: '  ',
        items: [line('ACM-100\r', 1)],
      }),
    );
    strictParse(built.text);
    const segments = split(built.text);
    expect(built.text).not.toMatch(/[\r\n\t]/);
    expect(segments.find((s) => s[0] === 'BIA')![3]).toBe('R'.repeat(30));
    expect(segments.find((s) => s[0] === 'N1')).toEqual(['N1', 'SF', 'MAIN DC']);
    expect(segments.find((s) => s[0] === 'REF')).toBeUndefined();
    expect(segments.find((s) => s[0] === 'LIN')).toEqual(['LIN', '1', 'SK', 'ACM-100']);
  });

  it('emits CTT*0*0 for an empty snapshot', () => {
    const segments = transactionSegments(build846(input({ items: [] })).text);
    expect(segments.find((s) => s.tag === 'CTT')!.elements.map((e) => e.value)).toEqual(['0', '0']);
  });

  it.each([
    ['sender_qualifier', { sender_qualifier: 'Z' }],
    ['sender_qualifier', { sender_qualifier: 'zz' }],
    ['receiver_qualifier', { receiver_qualifier: 'ZZZ' }],
    ['sender_id', { sender_id: 'A'.repeat(16) }],
    ['sender_id', { sender_id: '' }],
    ['receiver_id', { receiver_id: 'X'.repeat(16) }],
    ['receiver_id', { receiver_id: 'BAD\nID' }],
    ['version', { version: '4010' }],
    ['version', { version: '00401A' }],
    ['usage_indicator', { usage_indicator: 'X' as 'P' }],
  ])('rejects invalid edi.%s', (field, patch) => {
    expect(() => build846(input({ edi: { ...edi, ...patch } }))).toThrow(
      new RegExp(`edi\\.${field}`),
    );
  });

  it.each([
    [{ interchangeControlNumber: 0 }, /interchangeControlNumber/],
    [{ interchangeControlNumber: 1_000_000_000 }, /interchangeControlNumber/],
    [{ groupControlNumber: 1.5 }, /groupControlNumber/],
    [{ referenceId: ' \r\n ' }, /referenceId/],
    [{ createdAt: new Date('nope') }, /createdAt/],
    [{ items: [line('', 1)] }, /sku is empty/],
    [{ items: [line('S'.repeat(49), 1)] }, /sku/],
    [{ items: [line('A', -1)] }, /available_quantity/],
    [{ items: [line('A', 1.5)] }, /available_quantity/],
  ])('rejects invalid input %#', (patch, message) => {
    expect(() => build846(input(patch as Partial<Build846Input>))).toThrow(message);
  });

  it('pads the maximum control number and uses UTC', () => {
    const built = build846(
      input({
        interchangeControlNumber: 999_999_999,
        createdAt: new Date('2024-12-31T23:59:00-05:00'),
      }),
    );
    strictParse(built.text);
    const [isa, gs] = split(built.text);
    expect(isa![13]).toBe('999999999');
    expect([isa![9], isa![10], gs![4], gs![5]]).toEqual(['250101', '0459', '20250101', '0459']);
    expect(built.fileName).toBe('846_999999999.x12');
  });
});
