import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planIngest, type IngestPlan } from '../../../src/server/edi/inbound/ingest-plan';
import { readX12 } from '../../../src/server/edi/x12/reader';
import { golden, joinSegments, segmentsOf } from './edi-text';

/**
 * Random truncations and corruptions of a valid 850 never throw, and every one that leaves a
 * group to answer gets a 997 saying R or E (in AK5 or AK9); one that does not is refused.
 */

const PO = golden('850-two-orders.edi');
const SEGMENTS = segmentsOf(PO);
const CONNECTION = {
  sender_id: 'ACMEBRANDS',
  receiver_id: 'NORTHMARKET',
  brand_id: '11111111-1111-4111-8111-111111111111',
  retailer_id: '22222222-2222-4222-8222-222222222222',
  facility_id: '33333333-3333-4333-8333-333333333333',
};

const plan = (text: string) =>
  planIngest({ read: readX12(text), connection: CONNECTION, facilities: [], seenBefore: false });

/** Every group answered, each 997 saying R or E somewhere; or nothing to answer and refused. */
function saysRorE(result: IngestPlan) {
  if (result.groups.length === 0) {
    expect(result.refused).not.toBeNull();
    return;
  }
  expect(
    result.errors.length +
      result.groups.flatMap((g) => g.errors).length +
      result.groups.flatMap((g) => g.sets.flatMap((s) => s.errors)).length,
  ).toBeGreaterThan(0);
  for (const group of result.groups) {
    const ack = group.ack;
    if (ack === null) {
      // Only a group that cannot be named in an AK1 goes unanswered; it takes nothing in.
      expect(group.errors).toContain(
        'The group cannot be acknowledged: its GS01 or GS06 cannot be read',
      );
      expect(group.sets.every((set) => set.status === 'rejected')).toBe(true);
      continue;
    }
    const statuses = ack.filter((s) => s[0] === 'AK5' || s[0] === 'AK9').map((s) => s[1]);
    expect(statuses.some((status) => status === 'R' || status === 'E')).toBe(true);
  }
}

/**
 * Element positions holding a number that a count, total or control number checks (any change
 * shows), and dates (another digit may still be a date, so these only get a letter).
 */
const CHECKED_NUMBERS: Record<string, number[]> = {
  ST: [2],
  SE: [1, 2],
  GS: [6],
  GE: [1, 2],
  IEA: [1, 2],
  PO1: [2],
  CTT: [1, 2],
  BEG: [5],
  DTM: [2],
};
const DATES = new Set(['BEG', 'DTM']);

const corruption = fc.oneof(
  // Drop a segment after the ISA.
  fc.nat({ max: SEGMENTS.length - 2 }).map((i) => (s: string[]) => s.filter((_, j) => j !== i + 1)),
  // Repeat a segment after the ISA.
  fc
    .nat({ max: SEGMENTS.length - 2 })
    .map((i) => (s: string[]) => [...s.slice(0, i + 2), s[i + 1]!, ...s.slice(i + 2)]),
  // Change one digit of a checked number (a count, a control number, a quantity, a date).
  fc
    .tuple(
      fc.nat({ max: SEGMENTS.length - 1 }),
      fc.nat(),
      fc.nat(),
      fc.constantFrom(...'0123456789X'),
    )
    .map(([i, e, d, given]) => (s: string[]) => {
      const indices = s.flatMap((seg, j) => (CHECKED_NUMBERS[seg.split('*')[0]!] ? [j] : []));
      const at = indices[i % indices.length]!;
      let digit = given;
      const values = s[at]!.split('*');
      const positions = CHECKED_NUMBERS[values[0]!]!.filter((n) => (values[n] ?? '') !== '');
      const n = positions[e % positions.length]!;
      const value = values[n]!;
      const k = d % value.length;
      if (DATES.has(values[0]!)) digit = 'X';
      const replaced = value[k] === digit ? (digit === '0' ? '1' : '0') : digit;
      values[n] = value.slice(0, k) + replaced + value.slice(k + 1);
      return s.map((seg, j) => (j === at ? values.join('*') : seg));
    }),
);

describe('planIngest on damaged 850s', () => {
  it('the undamaged file is accepted (the baseline)', () => {
    const result = plan(PO);
    expect(result.groups[0]!.ack_status).toBe('A');
  });

  it('any truncation: never throws; every answer says R or E', () => {
    const text = PO.trimEnd();
    fc.assert(
      fc.property(fc.nat({ max: text.length - 1 }), (cut) => {
        saysRorE(plan(text.slice(0, cut)));
      }),
      { numRuns: 400 },
    );
  });

  // One damage at a time: two can cancel out (a segment dropped and another repeated in the
  // same set keep SE01 right), and such a file is then valid.
  it('a dropped or repeated segment, or a changed count, control number, quantity or date: R or E', () => {
    fc.assert(
      fc.property(corruption, (edit) => {
        saysRorE(plan(joinSegments(edit(SEGMENTS))));
      }),
      { numRuns: 400 },
    );
  });

  it('any characters replaced anywhere: never throws', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: PO.length - 1 }), fc.string({ maxLength: 4 })), {
          minLength: 1,
          maxLength: 5,
        }),
        (edits) => {
          let text = PO;
          for (const [at, replacement] of edits)
            text = text.slice(0, at) + replacement + text.slice(at + 1);
          const result = plan(text);
          for (const group of result.groups) {
            if (group.ack) expect(group.ack.at(-1)![0]).toBe('SE');
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
