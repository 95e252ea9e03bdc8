import fc from 'fast-check';
import { X12Parser } from 'node-x12';
import { describe, expect, it } from 'vitest';
import { readX12, type ReadResult } from '../../../src/server/edi/x12/reader';
import { editSegment, golden, segmentsOf, setElement } from './edi-text';

const PO = golden('850-two-orders.edi');

function only(result: ReadResult) {
  const interchange = result.interchange;
  if (!interchange) throw new Error(`no interchange: ${JSON.stringify(result.faults)}`);
  return interchange;
}

describe('readX12 on the golden 850', () => {
  const result = readX12(PO);
  const interchange = only(result);

  it('reads the envelope without faults', () => {
    expect(result.faults).toEqual([]);
    expect(interchange.separators).toEqual({ element: '*', component: '>', segment: '~' });
    expect(interchange).toMatchObject({
      senderQualifier: 'ZZ',
      senderId: 'NORTHMARKET',
      receiverQualifier: 'ZZ',
      receiverId: 'ACMEBRANDS',
      control: '000000417',
      testIndicator: 'P',
    });
    expect(interchange.groups).toHaveLength(1);
    const group = interchange.groups[0]!;
    expect(group).toMatchObject({
      functionalId: 'PO',
      control: '417',
      version: '004010',
      declaredSetCount: 2,
      faults: [],
    });
    expect(
      group.sets.map((set) => [set.id, set.control, set.setFaults, set.segmentFaults]),
    ).toEqual([
      ['850', '0001', [], []],
      ['850', '0002', [], []],
    ]);
  });

  it('numbers segments from ST = 1 to SE = SE01', () => {
    const set = interchange.groups[0]!.sets[0]!;
    expect(set.segments[0]!.values).toEqual(['ST', '850', '0001']);
    expect(set.segments[1]!.values).toEqual(['BEG', '00', 'SA', '4500012345', '', '20260115']);
    expect(set.segments.map((s) => s.position)).toEqual(set.segments.map((_, i) => i + 1));
    expect(set.segments.at(-1)!.values).toEqual(['SE', String(set.segments.length), '0001']);
  });

  it('agrees with node-x12 (an independent reader) segment by segment', () => {
    const oracle = new X12Parser(true).parse(PO);
    if (!('functionalGroups' in oracle)) throw new Error('node-x12 read a fat interchange');
    const theirs = oracle.functionalGroups.map((group) =>
      group.transactions.map((set) =>
        set.segments.map((segment) => [segment.tag, ...segment.elements.map((e) => e.value)]),
      ),
    );
    const ours = interchange.groups.map((group) =>
      group.sets.map((set) => set.segments.slice(1, -1).map((segment) => segment.values)),
    );
    expect(ours).toEqual(theirs);
  });
});

describe('readX12 separators', () => {
  it('takes whatever separators the ISA declares, also a line break as terminator', () => {
    const text = segmentsOf(PO)
      .map((segment) => segment.replaceAll('*', '|').replace(/\|>$/, '|^'))
      .join('\n');
    const result = readX12(`${text}\n`);
    expect(result.faults).toEqual([]);
    expect(only(result).separators).toEqual({ element: '|', component: '^', segment: '\n' });
    expect(only(result).groups[0]!.sets).toHaveLength(2);
  });

  it('accepts CRLF after each terminator and a byte-order mark', () => {
    const result = readX12(`\uFEFF${PO.replaceAll('~\n', '~\r\n')}`);
    expect(result.faults).toEqual([]);
  });
});

describe('readX12 envelope checks', () => {
  const groupOf = (text: string) => only(readX12(text)).groups[0]!;
  const firstSet = (text: string) => groupOf(text).sets[0]!;
  const codes = (faults: { code: string }[]) => faults.map((fault) => fault.code);

  it('SE01 not the segment count: AK502 4', () => {
    const text = editSegment(PO, 'SE', (s) => setElement(s, 1, '33'));
    expect(codes(firstSet(text).setFaults)).toEqual(['4']);
  });
  it('a segment removed from a set: AK502 4', () => {
    const text = editSegment(PO, 'PO4', () => null);
    expect(codes(firstSet(text).setFaults)).toEqual(['4']);
  });
  it('SE02 not ST02: AK502 3', () => {
    const text = editSegment(PO, 'SE', (s) => setElement(s, 2, '0009'));
    expect(codes(firstSet(text).setFaults)).toEqual(['3']);
  });
  it('a set without SE: AK502 2', () => {
    const text = editSegment(PO, 'SE', () => null);
    expect(codes(firstSet(text).setFaults)).toEqual(['2']);
  });
  it('ST02 used twice in a group: AK502 23', () => {
    let text = editSegment(PO, 'ST', (s) => setElement(s, 2, '0001'), 1);
    text = editSegment(text, 'SE', (s) => setElement(s, 2, '0001'), 1);
    expect(codes(groupOf(text).sets[1]!.setFaults)).toEqual(['23']);
  });
  it('a bad ST01 or ST02: AK502 6 or 7', () => {
    expect(codes(firstSet(editSegment(PO, 'ST', (s) => setElement(s, 1, 'X5'))).setFaults)).toEqual(
      ['6'],
    );
    const text = editSegment(
      editSegment(PO, 'ST', (s) => setElement(s, 2, '')),
      'SE',
      (s) => setElement(s, 2, ''),
    );
    expect(codes(firstSet(text).setFaults)).toEqual(['7']);
  });
  it('a segment ID that is no tag: AK304 1 at its position', () => {
    const text = editSegment(PO, 'CUR', (s) => s.replace('CUR', 'c?'));
    expect(firstSet(text).segmentFaults).toMatchObject([{ position: 3, code: '1' }]);
  });
  it('GE01 not the set count: AK905 5', () => {
    const text = editSegment(PO, 'GE', (s) => setElement(s, 1, '3'));
    expect(codes(groupOf(text).faults)).toEqual(['5']);
  });
  it('GE02 not GS06: AK905 4', () => {
    const text = editSegment(PO, 'GE', (s) => setElement(s, 2, '418'));
    expect(codes(groupOf(text).faults)).toEqual(['4']);
  });
  it('a group without GE: AK905 3', () => {
    const text = editSegment(PO, 'GE', () => null);
    expect(codes(groupOf(text).faults)).toEqual(['3']);
  });
  it('GS06 not a number: AK905 6 (and GE02 then differs: 4)', () => {
    const text = editSegment(PO, 'GS', (s) => setElement(s, 6, 'A17'));
    expect(codes(groupOf(text).faults)).toEqual(['6', '4']);
  });
  it('IEA01 not the group count: TA1 021', () => {
    const text = editSegment(PO, 'IEA', (s) => setElement(s, 1, '2'));
    expect(codes(readX12(text).faults)).toEqual(['021']);
  });
  it('IEA02 not ISA13: TA1 001', () => {
    const text = editSegment(PO, 'IEA', (s) => setElement(s, 2, '000000416'));
    expect(codes(readX12(text).faults)).toEqual(['001']);
  });
  it('no IEA, or no terminator at the end: TA1 023', () => {
    expect(codes(readX12(editSegment(PO, 'IEA', () => null)).faults)).toEqual(['023']);
    expect(codes(readX12(PO.trimEnd().slice(0, -1)).faults)).toEqual(['023']);
  });
  it('data after IEA: TA1 024', () => {
    expect(codes(readX12(`${PO}GS*PO*X*Y*20260101*1200*1*X*004010~`).faults)).toEqual(['024']);
  });
  it('a segment outside any set: TA1 022', () => {
    const text = PO.replace('ST*850*0002~', 'REF*DP*1~\nST*850*0002~');
    expect(codes(readX12(text).faults)).toEqual(['022']);
  });
  it('an ISA that is not 106 fixed-width characters: no interchange', () => {
    const short = PO.replace('NORTHMARKET    ', 'NORTHMARKET');
    expect(readX12(short)).toMatchObject({ interchange: null, faults: [{ code: '026' }] });
    expect(readX12(PO.slice(0, 80))).toMatchObject({
      interchange: null,
      faults: [{ code: '023' }],
    });
    expect(readX12('hello')).toMatchObject({ interchange: null, faults: [{ code: '024' }] });
    const extra = PO.replace('*00*          *00*', '*00*     *    *00*');
    expect(readX12(extra)).toMatchObject({ interchange: null, faults: [{ code: '024' }] });
    expect(readX12('')).toMatchObject({ interchange: null });
  });
  it('bad ISA dates, times and control numbers', () => {
    const isa = segmentsOf(PO)[0]!;
    const bad = isa.replace('*260115*1030*', '*260231*2460*').replace('000000417', '00000041A');
    const result = readX12(PO.replace(isa, bad));
    expect(codes(result.faults)).toEqual(['014', '015', '018', '001']);
  });
});

describe('readX12 never throws', () => {
  it('on any string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        readX12(text);
      }),
      { numRuns: 300 },
    );
  });
  it('on the golden file cut anywhere or with any character replaced', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: PO.length }),
        fc.nat({ max: PO.length - 1 }),
        fc.string({ minLength: 0, maxLength: 3 }),
        (cut, at, replacement) => {
          readX12(PO.slice(0, cut));
          const corrupted = PO.slice(0, at) + replacement + PO.slice(at + 1);
          const result = readX12(corrupted);
          expect(Array.isArray(result.faults)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
