import { describe, expect, it } from 'vitest';
import { planIngest, type IngestInput } from '../../../src/server/edi/inbound/ingest-plan';
import { readX12 } from '../../../src/server/edi/x12/reader';
import { editSegment, golden, setElement } from './edi-text';
import { envelope } from './envelope';
import { perlMissing, perlRead997 } from './perl-x12';

const PO = golden('850-two-orders.edi');
const CONNECTION = {
  sender_id: 'ACMEBRANDS',
  receiver_id: 'NORTHMARKET',
  brand_id: '11111111-1111-4111-8111-111111111111',
  retailer_id: '22222222-2222-4222-8222-222222222222',
  facility_id: '33333333-3333-4333-8333-333333333333',
};
const WEST = { id: '44444444-4444-4444-8444-444444444444', external_facility_code: 'WH-WEST' };
/** The connection's order facility, among the brand's facilities in its organisation. */
const HOME = { id: CONNECTION.facility_id, external_facility_code: null };

const plan = (text: string, extra: Partial<IngestInput> = {}) =>
  planIngest({
    read: readX12(text),
    connection: CONNECTION,
    facilities: [WEST, HOME],
    seenBefore: false,
    ...extra,
  });

describe('planIngest: the golden 850', () => {
  const result = plan(PO);

  it('accepts both POs, each with a create body and its line prices', () => {
    expect(result).toMatchObject({
      interchange_control_number: '000000417',
      sender_id: 'NORTHMARKET',
      receiver_id: 'ACMEBRANDS',
      duplicate: false,
      refused: null,
      errors: [],
    });
    const sets = result.groups[0]!.sets;
    expect(sets.map((s) => [s.type, s.control_number, s.status, s.po_number, s.errors])).toEqual([
      ['850', '0001', 'accepted', '4500012345', []],
      ['850', '0002', 'accepted', '4500012346', []],
    ]);
    const [first, second] = sets.map((s) => (s.content?.kind === 'order' ? s.content : null));
    expect(first?.body).toMatchObject({
      picksheet_code: '4500012345',
      po_number: '4500012345',
      brand_id: CONNECTION.brand_id,
      retailer_id: CONNECTION.retailer_id,
      facility_id: WEST.id, // N1*SF WH-WEST
    });
    expect(second?.body?.facility_id).toBe(CONNECTION.facility_id); // no N1*SF: the connection's
    expect(first?.lines.map((l) => l.unit_price)).toEqual([12.5, 8.75, 45]);
  });

  it('answers the group with a 997 that accepts both sets', () => {
    expect(result.groups[0]!.ack).toEqual([
      ['ST', '997', '0001'],
      ['AK1', 'PO', '417'],
      ['AK2', '850', '0001'],
      ['AK5', 'A'],
      ['AK2', '850', '0002'],
      ['AK5', 'A'],
      ['AK9', 'A', '2', '2', '2'],
      ['SE', '8', '0001'],
    ]);
    expect(result.groups[0]!.ack_status).toBe('A');
  });

  it.skipIf(perlMissing !== null)(
    `its 997 reads back with Perl X12::Parser${perlMissing ? ` (skipped: ${perlMissing})` : ''}`,
    () => {
      const text = envelope(result.groups[0]!.ack!, {
        functionalId: 'FA',
        groupControl: '5',
        interchangeControl: '5',
      });
      const loops = perlRead997(text).map((row) => `${row.loop} ${row.segment}`);
      expect(loops.slice(2, -2)).toEqual([
        'ST ST*997*0001',
        'AK1 AK1*PO*417',
        'AK2 AK2*850*0001',
        'AK5 AK5*A',
        'AK2 AK2*850*0002',
        'AK5 AK5*A',
        'AK9 AK9*A*2*2*2',
        'SE SE*8*0001',
      ]);
    },
  );
});

describe.skipIf(perlMissing !== null)(
  `997s of damaged files read back with Perl X12::Parser${perlMissing ? ` (skipped: ${perlMissing})` : ''}`,
  () => {
    const damaged: [string, string][] = [
      ['SE01 wrong', editSegment(PO, 'SE', (s) => setElement(s, 1, '30'))],
      ['a line quantity not a number', editSegment(PO, 'PO1', (s) => setElement(s, 2, '2X'), 1)],
      ['no BEG', editSegment(PO, 'BEG', () => null)],
      ['no SE', editSegment(PO, 'SE', () => null)],
      ['GE01 wrong', editSegment(PO, 'GE', (s) => setElement(s, 1, '3'))],
      ['ST01 blank', editSegment(PO, 'ST', (s) => setElement(s, 1, ''))],
      ['truncated', PO.slice(0, PO.indexOf('PO4*12'))],
    ];
    it.each(damaged)('%s', (_, text) => {
      const ack = plan(text).groups[0]!.ack!;
      const read = perlRead997(
        envelope(ack, { functionalId: 'FA', groupControl: '7', interchangeControl: '7' }),
      );
      // Perl finds every segment we wrote, in order, each in a 997 loop.
      expect(read.slice(2, -2).map((row) => row.segment)).toEqual(ack.map((s) => s.join('*')));
      expect(read.every((row) => row.loop !== '')).toBe(true);
    });
  },
);

describe('planIngest: refusals and duplicates', () => {
  it('another sender or receiver: refused, nothing taken, no 997', () => {
    const result = plan(PO, { connection: { ...CONNECTION, receiver_id: 'SOUTHMART' } });
    expect(result.refused).toMatch(
      /from "NORTHMARKET" to "ACMEBRANDS"; this connection takes files from "SOUTHMART"/,
    );
    expect(result.groups[0]!.ack).toBeNull();
    expect(result.groups[0]!.sets.map((s) => s.status)).toEqual(['rejected', 'rejected']);
  });

  it('an unreadable file: refused with the reason, no groups', () => {
    expect(plan('hello')).toMatchObject({
      refused: 'The file does not start with an ISA segment',
      groups: [],
    });
  });

  it('seen before: every set a duplicate, the 997 still sent', () => {
    const result = plan(PO, { seenBefore: true });
    expect(result.duplicate).toBe(true);
    expect(result.groups[0]!.sets.map((s) => s.status)).toEqual(['duplicate', 'duplicate']);
    expect(result.groups[0]!.ack_status).toBe('A');
    const damaged = plan(
      editSegment(PO, 'PO1', (s) => setElement(s, 2, '2X')),
      { seenBefore: true },
    );
    expect(damaged.groups[0]!.sets.map((s) => s.status)).toEqual(['duplicate', 'duplicate']);
    expect(damaged.groups[0]!.ack_status).toBe('P');
  });

  it('BEG01 07: that PO is a duplicate; 01: a cancellation with no body', () => {
    const dup = plan(editSegment(PO, 'BEG', (s) => setElement(s, 1, '07')));
    expect(dup.groups[0]!.sets[0]).toMatchObject({ status: 'duplicate', po_number: '4500012345' });
    const cancel = plan(editSegment(PO, 'BEG', (s) => setElement(s, 1, '01')));
    expect(cancel.groups[0]!.sets[0]).toMatchObject({
      status: 'accepted',
      content: { kind: 'order', purpose: 'cancellation', body: null },
    });
  });

  it('no facility to put the order in: rejected in our records, the 997 still accepts', () => {
    const result = plan(PO, { facilities: [], connection: { ...CONNECTION, facility_id: null } });
    const set = result.groups[0]!.sets[0]!;
    expect(set.status).toBe('rejected');
    expect(set.errors).toEqual([
      'The PO names warehouse "WH-WEST", which is no facility\'s code, and the connection has no order facility',
    ]);
    expect(result.groups[0]!.ack_status).toBe('A');
  });

  it('a connection setting naming a facility outside the brand in its organisation makes no order', () => {
    // The stored setting points elsewhere (another organisation's facility): the facilities the
    // plan may use come from the stored rows, so the PO is refused rather than filed there.
    // The second PO names no warehouse, so it would go to the connection's order facility.
    const result = plan(PO, { facilities: [WEST] });
    expect(result.groups[0]!.sets[0]!.status).toBe('accepted'); // N1*SF WH-WEST, a facility of ours
    const set = result.groups[0]!.sets[1]!;
    expect(set.status).toBe('rejected');
    expect(set.errors).toEqual([
      "The connection's order facility is not a facility of the brand in its organisation; no order was made",
    ]);
  });

  it('create rules the mapping cannot see (ship window reversed): rejected with the reason', () => {
    const text = editSegment(PO, 'DTM', (s) => setElement(s, 2, '20260125'), 3);
    const set = plan(text).groups[0]!.sets[0]!;
    expect(set.status).toBe('rejected');
    expect(set.errors).toEqual([
      'The order cannot be created: dates.latest_ship_date must not be before earliest_ship_date',
    ]);
  });
});

describe('planIngest: X12 faults reach the 997', () => {
  const ack = (text: string) => plan(text).groups[0]!;

  it('a bad line: that set rejected with AK3/AK4, the other accepted, AK9 P', () => {
    const group = ack(editSegment(PO, 'PO1', (s) => setElement(s, 2, '2X'), 1));
    expect(group.sets.map((s) => s.status)).toEqual(['rejected', 'accepted']);
    expect(group.sets[0]!.errors[0]).toBe(
      'Line 2: the quantity "2X" is not a whole number above 0',
    );
    expect(group.ack!.slice(2, 8)).toEqual([
      ['AK2', '850', '0001'],
      ['AK3', 'PO1', '28', 'PO1', '8'],
      ['AK4', '2', '330', '6', '2X'],
      ['AK3', 'CTT', '33', '', '8'],
      ['AK4', '2', '347', '7', '42'],
      ['AK5', 'R', '5'],
    ]);
    expect(group.ack!.at(-2)).toEqual(['AK9', 'P', '2', '2', '1']);
  });

  it('a bad case pack: accepted with errors noted (AK5 E, AK9 E)', () => {
    const group = ack(editSegment(PO, 'PO4', (s) => setElement(s, 1, 'six')));
    expect(group.sets[0]!.status).toBe('accepted');
    expect(group.ack!.find((s) => s[0] === 'AK5')).toEqual(['AK5', 'E']);
    expect(group.ack_status).toBe('E');
  });

  it('SE01 wrong: AK5 R 4; SE02 wrong: AK5 R 3', () => {
    const se01 = ack(editSegment(PO, 'SE', (s) => setElement(s, 1, '30')));
    expect(se01.ack!.find((s) => s[0] === 'AK5')).toEqual(['AK5', 'R', '4']);
    expect(se01.sets[0]!.errors).toEqual(['SE01 says 30 segments; the set has 34']);
    const se02 = ack(editSegment(PO, 'SE', (s) => setElement(s, 2, '0003')));
    expect(se02.ack!.find((s) => s[0] === 'AK5')).toEqual(['AK5', 'R', '3']);
  });

  it('GE01 wrong: AK9 R 5, nothing accepted; GE02 wrong: AK9 R 4', () => {
    const ge01 = ack(editSegment(PO, 'GE', (s) => setElement(s, 1, '3')));
    expect(ge01.ack!.at(-2)).toEqual(['AK9', 'R', '3', '2', '0', '5']);
    expect(ge01.sets.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    const ge02 = ack(editSegment(PO, 'GE', (s) => setElement(s, 2, '4170')));
    expect(ge02.ack!.at(-2)).toEqual(['AK9', 'R', '2', '2', '0', '4']);
  });

  it('IEA01 or IEA02 wrong: the file errors say why; every group rejected (AK9 R)', () => {
    for (const [n, value] of [
      [1, '2'],
      [2, '000000999'],
    ] as const) {
      const result = plan(editSegment(PO, 'IEA', (s) => setElement(s, n, value)));
      expect(result.errors).toHaveLength(1);
      expect(result.groups[0]!.ack!.at(-2)).toEqual(['AK9', 'R', '2', '2', '0']);
      expect(result.groups[0]!.sets.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    }
  });

  it('an unknown group type: AK9 R 1; an old version: AK9 R 2; an 860 in a PO group: AK5 R 1', () => {
    expect(ack(editSegment(PO, 'GS', (s) => setElement(s, 1, 'IN'))).ack!.at(-2)).toEqual([
      'AK9',
      'R',
      '2',
      '2',
      '0',
      '1',
    ]);
    expect(ack(editSegment(PO, 'GS', (s) => setElement(s, 8, '003040'))).ack!.at(-2)).toEqual([
      'AK9',
      'R',
      '2',
      '2',
      '0',
      '2',
    ]);
    const text = editSegment(PO, 'ST', (s) => setElement(s, 1, '860'));
    expect(ack(text).ack!.find((s) => s[0] === 'AK5')).toEqual(['AK5', 'R', '1']);
  });
});

describe('planIngest: several groups in one interchange', () => {
  it('a PO group and a PC group: each answered by its own 997 with its own ST02', () => {
    const [isa, ...rest] = PO.split('~\n');
    const poGroup = rest.slice(0, rest.indexOf('IEA*1*000000417'));
    const changes = golden('860-changes.edi').split('~\n');
    const pcGroup = changes.slice(
      1,
      changes.findIndex((s) => s.startsWith('IEA')),
    );
    const text = [isa, ...poGroup, ...pcGroup, 'IEA*2*000000417', ''].join('~\n');
    const result = plan(text, { ackControlNumber: (index) => String(9001 + index) });
    expect(result.errors).toEqual([]);
    expect(
      result.groups.map((g) => [g.functional_id, g.control_number, g.ack_status, g.ack![0]]),
    ).toEqual([
      ['PO', '417', 'A', ['ST', '997', '9001']],
      ['PC', '418', 'A', ['ST', '997', '9002']],
    ]);
  });
});

describe('planIngest: a group that cannot be named', () => {
  it('GS06 unreadable: no 997 (an AK1 needs it), nothing taken in', () => {
    let text = editSegment(PO, 'GS', (s) => setElement(s, 6, ''));
    text = editSegment(text, 'GE', (s) => setElement(s, 2, ''));
    const group = plan(text).groups[0]!;
    expect(group.ack).toBeNull();
    expect(group.errors).toContain(
      'The group cannot be acknowledged: its GS01 or GS06 cannot be read',
    );
    expect(group.sets.map((s) => s.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('planIngest: 860 and 997 groups', () => {
  it('an 860: the changes keyed by PO, answered with a 997', () => {
    const group = plan(golden('860-changes.edi')).groups[0]!;
    expect(group.sets.map((s) => [s.status, s.po_number, s.content?.kind])).toEqual([
      ['accepted', '4500012345', 'change'],
      ['accepted', '4500012346', 'change'],
    ]);
    expect(group.ack!.at(-2)).toEqual(['AK9', 'A', '2', '2', '2']);
  });

  it('a 997: read for the outbound documents, never answered', () => {
    const group = plan(golden('997-partial.edi')).groups[0]!;
    expect(group.ack).toBeNull();
    expect(group.sets[0]!.content).toMatchObject({
      kind: 'acknowledgment',
      acknowledgment: {
        functional_id: 'IN',
        group_control: '1021',
        group_outcome: 'partially_accepted',
        sets: [
          { id: '810', control: '0001', outcome: 'accepted' },
          { id: '810', control: '0002', outcome: 'rejected', set_codes: ['5'] },
        ],
      },
    });
  });
});
