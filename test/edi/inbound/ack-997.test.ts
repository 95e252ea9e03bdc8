import { describe, expect, it } from 'vitest';
import {
  build997,
  type GroupAckInput,
  type SetAckInput,
} from '../../../src/server/edi/inbound/ack-997';
import { readX12 } from '../../../src/server/edi/x12/reader';
import { envelope } from './envelope';
import { perlMissing, perlRead997 } from './perl-x12';

const accepted = (control: string): SetAckInput => ({
  id: '850',
  control,
  status: 'A',
  setCodes: [],
  segmentFaults: [],
});

const MIXED: GroupAckInput = {
  functionalId: 'PO',
  control: '417',
  declaredSetCount: 2,
  rejected: false,
  groupCodes: [],
  sets: [
    accepted('0001'),
    {
      id: '850',
      control: '0002',
      status: 'R',
      setCodes: ['5'],
      segmentFaults: [
        {
          segment: 'PO1',
          position: 9,
          loop: 'PO1',
          code: '8',
          severity: 'reject',
          message: 'quantity is not a number',
          elements: [{ position: 2, reference: '330', code: '6', value: '2X' }],
        },
        {
          segment: 'BEG',
          position: 2,
          code: '8',
          severity: 'reject',
          message: 'no PO number',
          elements: [{ position: 3, reference: '324', code: '1' }],
        },
      ],
    },
  ],
};

describe('build997', () => {
  it('acknowledges every set; AK3/AK4 in segment order; AK9 P when some are rejected', () => {
    expect(build997(MIXED, { controlNumber: '0001' })).toEqual([
      ['ST', '997', '0001'],
      ['AK1', 'PO', '417'],
      ['AK2', '850', '0001'],
      ['AK5', 'A'],
      ['AK2', '850', '0002'],
      ['AK3', 'BEG', '2', '', '8'],
      ['AK4', '3', '324', '1'],
      ['AK3', 'PO1', '9', 'PO1', '8'],
      ['AK4', '2', '330', '6', '2X'],
      ['AK5', 'R', '5'],
      ['AK9', 'P', '2', '2', '1'],
      ['SE', '12', '0001'],
    ]);
  });

  it('AK9 A when all are accepted, E when one has errors noted, R when none is accepted', () => {
    const ak9 = (input: GroupAckInput) => build997(input, { controlNumber: '1' }).at(-2);
    const base = { ...MIXED, sets: [accepted('0001'), accepted('0002')] };
    expect(ak9(base)).toEqual(['AK9', 'A', '2', '2', '2']);
    expect(
      ak9({ ...base, sets: [accepted('0001'), { ...accepted('0002'), status: 'E' }] }),
    ).toEqual(['AK9', 'E', '2', '2', '2']);
    expect(ak9({ ...base, sets: [{ ...accepted('0001'), status: 'R' }] })).toEqual([
      'AK9',
      'R',
      '2',
      '1',
      '0',
    ]);
  });

  it('a rejected group says R with its codes and accepts nothing, whatever its sets', () => {
    const segments = build997(
      { ...MIXED, declaredSetCount: 3, rejected: true, groupCodes: ['5', '4', '5'] },
      { controlNumber: '22' },
    );
    expect(segments.at(-2)).toEqual(['AK9', 'R', '3', '2', '0', '5', '4']);
  });

  it('an empty group (no sets) is rejected', () => {
    const segments = build997(
      { ...MIXED, sets: [], declaredSetCount: null, rejected: false },
      { controlNumber: '1' },
    );
    expect(segments.at(-2)).toEqual(['AK9', 'R', '0', '0', '0']);
  });

  it('copies of received values never carry a separator and are cut to their maximum', () => {
    const segments = build997(
      {
        ...MIXED,
        functionalId: 'P*O~',
        sets: [
          {
            id: '850',
            control: '0002',
            status: 'R',
            setCodes: [],
            segmentFaults: [
              {
                segment: 'P|1',
                position: 4,
                code: '1',
                severity: 'reject',
                message: '',
                elements: [{ position: 1, code: '6', value: `a*b~c>d^e:f${'x'.repeat(200)}` }],
              },
            ],
          },
        ],
      },
      { controlNumber: '1' },
    );
    expect(segments[1]).toEqual(['AK1', 'PO', '417']);
    expect(segments[3]).toEqual(['AK3', 'P1', '4', '', '1']);
    expect(segments[4]![4]).toBe(`abcdef${'x'.repeat(93)}`);
  });

  it('reads back with our reader: envelope and SE01 right', () => {
    const text = envelope(build997(MIXED, { controlNumber: '0001' }), {
      functionalId: 'FA',
      groupControl: '9',
      interchangeControl: '9',
    });
    const result = readX12(text);
    expect(result.faults).toEqual([]);
    const set = result.interchange!.groups[0]!.sets[0]!;
    expect(set.setFaults).toEqual([]);
    expect(set.id).toBe('997');
  });

  it.skipIf(perlMissing !== null)(
    `reads back with Perl X12::Parser into its 997 loops${perlMissing ? ` (skipped: ${perlMissing})` : ''}`,
    () => {
      const text = envelope(build997(MIXED, { controlNumber: '0001' }), {
        functionalId: 'FA',
        groupControl: '9',
        interchangeControl: '9',
      });
      expect(perlRead997(text)).toEqual([
        { loop: 'ISA', segment: expect.stringMatching(/^ISA\*00\*/) as unknown as string },
        { loop: 'GS', segment: 'GS*FA*ACMEBRANDS*NORTHMARKET*20260115*1031*9*X*004010' },
        { loop: 'ST', segment: 'ST*997*0001' },
        { loop: 'AK1', segment: 'AK1*PO*417' },
        { loop: 'AK2', segment: 'AK2*850*0001' },
        { loop: 'AK5', segment: 'AK5*A' },
        { loop: 'AK2', segment: 'AK2*850*0002' },
        { loop: 'AK2/AK3', segment: 'AK3*BEG*2**8' },
        { loop: 'AK2/AK3', segment: 'AK4*3*324*1' },
        { loop: 'AK2/AK3', segment: 'AK3*PO1*9*PO1*8' },
        { loop: 'AK2/AK3', segment: 'AK4*2*330*6*2X' },
        { loop: 'AK5', segment: 'AK5*R*5' },
        { loop: 'AK9', segment: 'AK9*P*2*2*1' },
        { loop: 'SE', segment: 'SE*12*0001' },
        { loop: 'GE', segment: 'GE*1*9' },
        { loop: 'IEA', segment: 'IEA*1*000000009' },
      ]);
    },
  );
});
