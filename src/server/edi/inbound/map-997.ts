import { ELEMENT_ERROR, SEGMENT_ERROR, type SegmentFault } from '../x12/codes';
import { element, type ReadSegment, type ReadSet } from '../x12/reader';
import { collectFaults } from './faults';

/**
 * A received 997: which of our outbound groups (AK102 = our GS06) and sets (AK202 = our ST02) the
 * retailer accepted, accepted with errors, or rejected, with its notes on our segments.
 */

export type AckOutcome = 'accepted' | 'accepted_with_errors' | 'rejected';

export interface AcknowledgedSet {
  /** AK201 and AK202: the set type and control number we sent. */
  id: string;
  control: string;
  /** AK501 as sent, and what it means for the document. */
  code: string;
  outcome: AckOutcome;
  /** AK502..AK506. */
  set_codes: string[];
  /** AK3/AK4 notes on our segments, as sent. */
  notes: { segment: string; position: string; code: string; elements: string[][] }[];
}

export interface Mapped997 {
  /** AK101 and AK102: the functional ID and control number (GS06) of our group. */
  functional_id: string;
  group_control: string;
  /** AK901 as sent (A, E, P, R, ...), and what it means for the group. */
  group_code: string;
  group_outcome: AckOutcome | 'partially_accepted' | null;
  included: number | null;
  received: number | null;
  accepted: number | null;
  group_codes: string[];
  sets: AcknowledgedSet[];
  faults: SegmentFault[];
}

/** AK501/AK901: A accepted, E accepted with errors noted, R/M/W/X rejected, P partially. */
function outcomeOf(code: string): AckOutcome | null {
  if (code === 'A') return 'accepted';
  if (code === 'E') return 'accepted_with_errors';
  if (['R', 'M', 'W', 'X'].includes(code)) return 'rejected';
  return null;
}

const count = (value: string) => (/^\d+$/.test(value) ? Number(value) : null);

export function map997(set: ReadSet): Mapped997 {
  const collect = collectFaults();
  const result: Mapped997 = {
    functional_id: '',
    group_control: '',
    group_code: '',
    group_outcome: null,
    included: null,
    received: null,
    accepted: null,
    group_codes: [],
    sets: [],
    faults: collect.faults,
  };
  let current: AcknowledgedSet | null = null;
  let ak1: ReadSegment | null = null;
  let ak9: ReadSegment | null = null;
  const invalidCode = (segment: ReadSegment, n: number, reference: string, what: string) =>
    collect.element(
      segment,
      {
        position: n,
        reference,
        code:
          element(segment, n) === ''
            ? ELEMENT_ERROR.mandatoryElementMissing
            : ELEMENT_ERROR.invalidCodeValue,
        value: element(segment, n),
      },
      `${what} "${element(segment, n)}" is not an acknowledgment code`,
    );
  const closeWithoutAk5 = (segment: ReadSegment) => {
    if (!current) return;
    collect.segment(
      'AK5',
      segment.position,
      SEGMENT_ERROR.mandatorySegmentMissing,
      `The answer on set ${current.id} ${current.control} has no AK5`,
      'AK2',
    );
    current = null;
  };
  for (const segment of set.segments) {
    const tag = segment.values[0] ?? '';
    if (tag === 'AK2' || tag === 'AK9') closeWithoutAk5(segment);
    if (tag === 'AK1') {
      ak1 = segment;
      result.functional_id = element(segment, 1);
      result.group_control = element(segment, 2);
      if (!/^\d{1,9}$/.test(result.group_control)) {
        collect.element(
          segment,
          {
            position: 2,
            reference: '28',
            code: ELEMENT_ERROR.invalidCharacter,
            value: result.group_control,
          },
          `AK102 "${result.group_control}" is not a group control number`,
        );
      }
    } else if (tag === 'AK2') {
      current = {
        id: element(segment, 1),
        control: element(segment, 2),
        code: '',
        outcome: 'rejected',
        set_codes: [],
        notes: [],
      };
      result.sets.push(current);
    } else if (tag === 'AK3' && current) {
      current.notes.push({
        segment: element(segment, 1),
        position: element(segment, 2),
        code: element(segment, 4),
        elements: [],
      });
    } else if (tag === 'AK4' && current) {
      current.notes.at(-1)?.elements.push(segment.values.slice(1));
    } else if (tag === 'AK5' && current) {
      current.code = element(segment, 1);
      const outcome = outcomeOf(current.code);
      if (outcome) current.outcome = outcome;
      else invalidCode(segment, 1, '717', 'AK501');
      current.set_codes = segment.values.slice(2).filter((code) => code !== '');
      current = null;
    } else if (tag === 'AK9') {
      ak9 = segment;
      result.group_code = element(segment, 1);
      result.group_outcome =
        result.group_code === 'P' ? 'partially_accepted' : outcomeOf(result.group_code);
      if (!result.group_outcome) invalidCode(segment, 1, '715', 'AK901');
      result.included = count(element(segment, 2));
      result.received = count(element(segment, 3));
      result.accepted = count(element(segment, 4));
      result.group_codes = segment.values.slice(5).filter((code) => code !== '');
    }
  }
  if (!ak1) {
    collect.segment('AK1', 2, SEGMENT_ERROR.mandatorySegmentMissing, 'The 997 has no AK1');
  }
  if (!ak9) {
    collect.segment(
      'AK9',
      Math.max(set.segments.length - 1, 1),
      SEGMENT_ERROR.mandatorySegmentMissing,
      'The 997 has no AK9',
    );
  }
  return result;
}
