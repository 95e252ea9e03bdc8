/**
 * The X12 interchange writer (src/server/edi/x12/writer.ts): envelope, counts, control numbers
 * and separators, read back by Debian's Perl X12::Parser.
 */
import { describe, expect, it } from 'vitest';
import { writeInterchange, type InterchangeInput } from '../../src/server/edi/x12/writer';
import { CF_997, readWithPerl, segmentsOf } from './x12-perl';

const edi = {
  sender_qualifier: 'ZZ',
  sender_id: 'ACMEWH',
  receiver_qualifier: '01',
  receiver_id: 'RETAILER1',
  version: '004010',
  usage_indicator: 'T' as const,
};
const at = new Date('2026-03-04T05:06:07Z');
const ack = (gs06: string, st02: string) => [
  ['AK1', 'PO', gs06],
  ['AK2', '850', st02],
  ['AK5', 'A'],
  ['AK9', 'A', '1', '1', '1'],
];
const input = (over: Partial<InterchangeInput> = {}): InterchangeInput => ({
  edi,
  functionalId: 'FA',
  interchangeControlNumber: 42,
  groupControlNumber: 7,
  createdAt: at,
  transactionSets: [ack('12', '0001'), ack('13', '0002')],
  ...over,
});

describe('writeInterchange', () => {
  it('writes ISA/GS/ST…SE/GE/IEA with counts, control numbers and a 106-character ISA', () => {
    const written = writeInterchange(input());
    const segments = written.text.split('~').filter(Boolean);
    expect(segments[0]).toHaveLength(105); // plus the terminator: 106
    expect(segments[0]).toBe(
      'ISA*00*          *00*          *ZZ*ACMEWH         *01*RETAILER1      *260304*0506*U*00401*000000042*0*T*>',
    );
    expect(segments[1]).toBe('GS*FA*ACMEWH*RETAILER1*20260304*0506*7*X*004010');
    expect(segments[2]).toBe('ST*997*0001');
    expect(segments[7]).toBe('SE*6*0001');
    expect(segments[8]).toBe('ST*997*0002');
    expect(segments.at(-2)).toBe('GE*2*7');
    expect(segments.at(-1)).toBe('IEA*1*000000042');
    expect(written.transactionControlNumbers).toEqual(['0001', '0002']);
    expect(written.segmentCounts).toEqual([6, 6]);
    expect(written.fileName).toBe('997_000000042.x12');
  });

  it('is read back by X12::Parser with the 997 loops', () => {
    const reading = readWithPerl(writeInterchange(input()).text, CF_997);
    expect(reading.element).toBe('*');
    expect(reading.loops.map((l) => l.name)).toEqual([
      'ISA', 'GS', 'ST', 'AK1', 'AK2', 'AK5', 'AK9', 'SE',
      'ST', 'AK1', 'AK2', 'AK5', 'AK9', 'SE', 'GE', 'IEA',
    ]); // prettier-ignore
    const se = segmentsOf(reading).filter((s) => s[0] === 'SE');
    expect(se).toEqual([
      ['SE', '6', '0001'],
      ['SE', '6', '0002'],
    ]);
  });

  it('picks separators the data does not contain', () => {
    const written = writeInterchange(
      input({
        transactionSets: [
          [
            ['AK1', 'PO', '1'],
            ['NTE', 'a*b~c>d^e'],
          ],
        ],
      }),
    );
    const { element, segment, component } = written.separators;
    expect([element, segment, component]).not.toContain('*');
    expect(new Set([element, segment, component]).size).toBe(3);
    const reading = readWithPerl(written.text, CF_997);
    const nte = segmentsOf(reading).find((s) => s[0] === 'NTE');
    expect(nte).toEqual(['NTE', 'a*b~c>d^e']);
  });

  it('takes GS01 per type and names the file after the set', () => {
    const written = writeInterchange(
      input({ functionalId: 'SH', transactionSets: [[['BSN', '00', 'X', '20260304', '0506']]] }),
    );
    expect(written.text).toContain('~GS*SH*');
    expect(written.text).toContain('~ST*856*0001~');
    expect(written.fileName).toBe('856_000000042.x12');
  });

  it('joins components with the component separator and drops trailing empty elements', () => {
    const written = writeInterchange(
      input({
        transactionSets: [
          [
            ['AK1', 'PO', '1', '', ''],
            ['XX', ['A', 'B', '']],
          ],
        ],
      }),
    );
    expect(written.text).toContain('~AK1*PO*1~XX*A>B~');
  });

  it('refuses control numbers out of range, a set that already has ST, and no set', () => {
    expect(() => writeInterchange(input({ interchangeControlNumber: 0 }))).toThrow(
      /1\.\.999999999/,
    );
    expect(() => writeInterchange(input({ groupControlNumber: 1_000_000_000 }))).toThrow(
      /groupControlNumber/,
    );
    expect(() => writeInterchange(input({ interchangeControlNumber: 1.5 }))).toThrow();
    expect(() => writeInterchange(input({ transactionSets: [[['ST', '997', '1']]] }))).toThrow(
      /ST or SE/,
    );
    expect(() => writeInterchange(input({ transactionSets: [] }))).toThrow(/no transaction set/);
    expect(() => writeInterchange(input({ transactionControlNumbers: ['0001', '0001'] }))).toThrow(
      /repeat/,
    );
    expect(() => writeInterchange(input({ edi: { ...edi, sender_id: 'X'.repeat(16) } }))).toThrow(
      /sender_id/,
    );
  });

  it('turns control characters in the data into spaces', () => {
    const written = writeInterchange(input({ transactionSets: [[['NTE', 'a\r\nb']]] }));
    expect(written.text).toContain('~NTE*a b~');
  });
});
