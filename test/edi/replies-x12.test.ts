/**
 * The 855 and 810 builders (src/server/edi/ack-855.ts, invoice-810.ts), enveloped by the X12
 * writer: golden files, read back by Debian's Perl X12::Parser. UPDATE_GOLDEN=1 rewrites them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { build855 } from '../../src/server/edi/ack-855';
import { build810 } from '../../src/server/edi/invoice-810';
import type { PoLine } from '../../src/server/edi/order-lines';
import { writeInterchange, type FunctionalId, type Segment } from '../../src/server/edi/x12/writer';
import { ediSettings } from './asn-fixtures';
import { CF_810, CF_855, readWithPerl, segmentsOf } from './x12-perl';

const at = new Date('2026-03-05T10:00:00Z');
const poDate = new Date('2026-03-01T08:00:00Z');
const lines: PoLine[] = [
  { lineId: '1', sku: 'SKU-RED', upc: '012345678905', quantity: 12, unitPrice: 2.5 },
  { lineId: '2', sku: 'SKU-BLUE', upc: null, quantity: 3, unitPrice: 10.125 },
  { lineId: '3', sku: 'SKU-GREEN', upc: null, quantity: 4, unitPrice: 1 },
];

const write = (functionalId: FunctionalId, body: Segment[]) =>
  writeInterchange({
    edi: ediSettings,
    functionalId,
    interchangeControlNumber: 2001,
    groupControlNumber: 601,
    createdAt: at,
    transactionSets: [body],
  }).text;

function golden(name: string, text: string): string {
  const path = fileURLToPath(new URL(`./golden/${name}`, import.meta.url));
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, text.replaceAll('~', '~\n'));
  return readFileSync(path, 'utf8').replaceAll('~\n', '~');
}

describe('855', () => {
  const text = write(
    'PR',
    build855({
      poNumber: 'PO-4500012345',
      poDate,
      acknowledgedAt: at,
      lines,
      choices: new Map([
        ['2', { line_id: '2', status: 'backordered' as const }],
        ['3', { line_id: '3', status: 'quantity_changed' as const, quantity: 2 }],
      ]),
    }),
  );

  it('is unchanged', () => {
    expect(text).toBe(golden('855.x12', text));
  });

  it('reads back: BAK*AC with a change, PO1 and ACK per line, CTT the line count', () => {
    const reading = readWithPerl(text, CF_855);
    expect(reading.loops.map((l) => l.name)).toEqual([
      'ISA', 'GS', 'ST', 'PO1', 'PO1', 'PO1', 'CTT', 'SE', 'GE', 'IEA',
    ]); // prettier-ignore
    const segments = segmentsOf(reading);
    expect(segments.find((s) => s[0] === 'BAK')!.slice(0, 5)).toEqual([
      'BAK', '00', 'AC', 'PO-4500012345', '20260301',
    ]); // prettier-ignore
    expect(segments.filter((s) => s[0] === 'ACK')).toEqual([
      ['ACK', 'IA', '12', 'EA'],
      ['ACK', 'IB', '3', 'EA'],
      ['ACK', 'IQ', '2', 'EA'],
    ]);
    expect(segments.find((s) => s[0] === 'CTT')).toEqual(['CTT', '3']);
  });

  it('BAK02 is AD when every line is accepted and RJ when every line is rejected', () => {
    const bak = (choices: Map<string, { line_id: string; status: 'rejected' }>) =>
      build855({ poNumber: 'P', poDate, acknowledgedAt: at, lines, choices })[0]![2];
    expect(bak(new Map())).toBe('AD');
    expect(
      bak(
        new Map(lines.map((l) => [l.lineId, { line_id: l.lineId, status: 'rejected' as const }])),
      ),
    ).toBe('RJ');
  });
});

describe('810', () => {
  const text = write(
    'IN',
    build810({
      invoiceNumber: 'PS-101',
      invoicedAt: at,
      poNumber: 'PO-4500012345',
      poDate,
      billOfLadingNumber: 'BOL-77',
      shipToName: 'Retailer DC 12',
      shipToCode: '6021',
      lines: [
        { ...lines[0]!, unitPrice: 2.5, shipped: 12 },
        { ...lines[1]!, unitPrice: 10.125, shipped: 2 },
      ],
    }),
  );

  it('is unchanged', () => {
    expect(text).toBe(golden('810.x12', text));
  });

  it('reads back: IT1 per shipped line at the PO price, TDS the total in cents', () => {
    const segments = segmentsOf(readWithPerl(text, CF_810));
    expect(segments.find((s) => s[0] === 'BIG')).toEqual([
      'BIG', '20260305', 'PS-101', '20260301', 'PO-4500012345',
    ]); // prettier-ignore
    expect(segments.filter((s) => s[0] === 'IT1')).toEqual([
      ['IT1', '1', '12', 'EA', '2.5', '', 'UP', '012345678905', 'VN', 'SKU-RED'],
      ['IT1', '2', '2', 'EA', '10.125', '', 'VN', 'SKU-BLUE'],
    ]);
    // 12 × 2.50 + 2 × 10.125 = 50.25
    expect(segments.find((s) => s[0] === 'TDS')).toEqual(['TDS', '5025']);
    expect(segments.find((s) => s[0] === 'CTT')).toEqual(['CTT', '2']);
  });
});
