/**
 * The 856 built from packed facts (src/server/edi/asn-856.ts), enveloped by the X12 writer:
 * golden files for a pallet (SOTPI) and a parcel (SOPI) order, each read back by Debian's Perl
 * X12::Parser. Set UPDATE_GOLDEN=1 to rewrite the files after a deliberate change (then review
 * the diff).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { build856, type AsnFacts } from '../../src/server/edi/asn-856';
import { writeInterchange } from '../../src/server/edi/x12/writer';
import { ediSettings, freightOrder, parcelOrder } from './asn-fixtures';
import { CF_856, readWithPerl, segmentsOf } from './x12-perl';

const write = (facts: AsnFacts) =>
  writeInterchange({
    edi: ediSettings,
    functionalId: 'SH',
    interchangeControlNumber: 1001,
    groupControlNumber: 501,
    createdAt: facts.createdAt,
    transactionSets: [build856(facts)],
  }).text;

function golden(name: string, text: string): string {
  const path = fileURLToPath(new URL(`./golden/${name}`, import.meta.url));
  // One segment per line in the file, so a change reads as a diff; the document has none.
  const lines = text.replaceAll('~', '~\n');
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, lines);
  return readFileSync(path, 'utf8').replaceAll('~\n', '~');
}

describe('856 golden files', () => {
  it.each([
    ['856-sotpi.x12', freightOrder],
    ['856-sopi.x12', parcelOrder],
  ])('%s is unchanged', (name, facts) => {
    const text = write(facts);
    expect(text).toBe(golden(name, text));
  });
});

describe('856 read back by X12::Parser', () => {
  it('a pallet order is S, O, then T/P/I per pallet, with CTT01 = HL count and SE01 right', () => {
    const reading = readWithPerl(write(freightOrder), CF_856);
    expect(reading.loops.map((l) => l.name)).toEqual([
      'ISA', 'GS', 'ST', 'HL_S', 'N1', 'N1', 'HL_O',
      'HL_T', 'HL_P', 'HL_I', 'HL_I', 'HL_P', 'HL_I',
      'HL_T', 'HL_P', 'HL_I',
      'CTT', 'SE', 'GE', 'IEA',
    ]); // prettier-ignore
    const segments = segmentsOf(reading);
    const hls = segments.filter((s) => s[0] === 'HL');
    expect(segments.find((s) => s[0] === 'CTT')).toEqual(['CTT', String(hls.length)]);
    const st = segments.findIndex((s) => s[0] === 'ST');
    const se = segments.findIndex((s) => s[0] === 'SE');
    expect(segments[se]![1]).toBe(String(se - st + 1));
    expect(segments.find((s) => s[0] === 'REF' && s[1] === 'BM')).toEqual([
      'REF',
      'BM',
      'BOL-778812',
    ]);
    expect(segments.find((s) => s[0] === 'PRF')).toEqual(['PRF', 'PO-4500012345']);
    expect(segments.find((s) => s[0] === 'DTM')).toEqual(['DTM', '011', '20260304', '1529']);
    expect(segments.find((s) => s[0] === 'TD1')).toEqual([
      'TD1',
      'PLT94',
      '2',
      '',
      '',
      '',
      'G',
      '710.5',
      'LB',
    ]);
    expect(segments.find((s) => s[0] === 'TD5')).toEqual([
      'TD5',
      'B',
      '2',
      'ODFL',
      'M',
      'Old Dominion Freight Line',
    ]);
    // SSCCs at T and P levels, as AI 00 + SSCC-18.
    const marks = segments.filter((s) => s[0] === 'MAN').map((s) => s[2]);
    expect(marks).toEqual([
      ...[freightOrder.pallets[0]!.sscc, freightOrder.cartons[0]!.sscc, freightOrder.cartons[1]!.sscc],
      ...[freightOrder.pallets[1]!.sscc, freightOrder.cartons[2]!.sscc],
    ].map((sscc) => `00${sscc}`)); // prettier-ignore
    // Two scans of one SKU in a carton are one line.
    expect(segments.filter((s) => s[0] === 'SN1').map((s) => s[2])).toEqual(['6', '4', '10', '8']);
  });

  it('a parcel order is S, O, then P/I per carton, with tracking numbers as a second mark', () => {
    const reading = readWithPerl(write(parcelOrder), CF_856);
    expect(reading.loops.map((l) => l.name)).toEqual([
      'ISA', 'GS', 'ST', 'HL_S', 'N1', 'N1', 'HL_O',
      'HL_P', 'HL_I', 'HL_P', 'HL_I',
      'CTT', 'SE', 'GE', 'IEA',
    ]); // prettier-ignore
    const segments = segmentsOf(reading);
    expect(segments.find((s) => s[0] === 'MAN')).toEqual([
      'MAN', 'GM', `00${parcelOrder.cartons[0]!.sscc}`, '', 'CP', '1Z999AA10123456784',
    ]); // prettier-ignore
    expect(segments.find((s) => s[0] === 'REF')).toEqual(['REF', 'DP', '042']);
    expect(segments.find((s) => s[0] === 'TD1')).toEqual([
      'TD1',
      'CTN25',
      '2',
      '',
      '',
      '',
      'G',
      '6',
      'LB',
    ]);
    expect(segments.find((s) => s[0] === 'TD5')?.[4]).toBe('U');
  });
});
