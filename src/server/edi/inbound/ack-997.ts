import type { GroupErrorCode, SegmentFault, SetErrorCode } from '../x12/codes';

/**
 * The 997 functional acknowledgment for one received group, as segments (ST…SE, each an array
 * whose first value is the tag). The outbound writer wraps it in its own ISA/GS…GE/IEA and picks
 * the separators, so values here never contain one (see `safe`).
 */

/** AK501: accepted, accepted with errors noted, rejected. */
export type SetAckStatus = 'A' | 'E' | 'R';
/** AK901: as AK501, plus P (some sets accepted, some rejected). */
export type GroupAckStatus = 'A' | 'E' | 'P' | 'R';

export interface SetAckInput {
  /** ST01 and ST02 of the received set. */
  id: string;
  control: string;
  status: SetAckStatus;
  /** AK502..AK506 (at most five are written). */
  setCodes: SetErrorCode[];
  /** One AK3 each, with its AK4s. */
  segmentFaults: SegmentFault[];
}

export interface GroupAckInput {
  /** GS01 and GS06 of the received group. */
  functionalId: string;
  control: string;
  /** GE01 as received; null when missing (then the sets counted are reported). */
  declaredSetCount: number | null;
  sets: SetAckInput[];
  /** AK905..AK909: the group's own faults; any of them rejects the group. */
  groupCodes: GroupErrorCode[];
  /** The group is rejected as a whole (its codes, or a broken interchange envelope). */
  rejected: boolean;
}

/** ST02 of the 997 itself. */
export interface AckOptions {
  controlNumber: string;
}

export function groupAckStatus(input: GroupAckInput): {
  status: GroupAckStatus;
  accepted: number;
} {
  const accepted = input.rejected ? 0 : input.sets.filter((set) => set.status !== 'R').length;
  if (input.rejected || accepted === 0) return { status: 'R', accepted };
  if (accepted < input.sets.length) return { status: 'P', accepted };
  if (input.sets.some((set) => set.status === 'E')) return { status: 'E', accepted };
  return { status: 'A', accepted };
}

export function build997(input: GroupAckInput, options: AckOptions): string[][] {
  const body: string[][] = [['AK1', safe(input.functionalId, 2), safe(input.control, 9)]];
  for (const set of input.sets) {
    body.push(['AK2', safe(set.id, 3), safe(set.control, 9)]);
    for (const fault of [...set.segmentFaults].sort((a, b) => a.position - b.position)) {
      body.push(
        trim(['AK3', safe(fault.segment, 3), String(fault.position), fault.loop ?? '', fault.code]),
      );
      for (const element of fault.elements) {
        // AK401 is a composite (position, component); the element position alone is written, so
        // the 997 never depends on the outgoing component separator.
        body.push(
          trim([
            'AK4',
            String(element.position),
            element.reference ?? '',
            element.code,
            safe(element.value ?? '', 99),
          ]),
        );
      }
    }
    // A group rejected as a whole takes none of its sets in, so none is answered A or E
    // (AK9's count of accepted sets is 0 then too).
    const status = input.rejected ? 'R' : set.status;
    body.push(['AK5', status, ...unique(set.setCodes).slice(0, 5)]);
  }
  const { status, accepted } = groupAckStatus(input);
  body.push([
    'AK9',
    status,
    String(input.declaredSetCount ?? input.sets.length),
    String(input.sets.length),
    String(accepted),
    ...unique(input.groupCodes).slice(0, 5),
  ]);
  const control = safe(options.controlNumber, 9);
  return [['ST', '997', control], ...body, ['SE', String(body.length + 2), control]];
}

/**
 * A received value copied into the 997, cut to the element's maximum and kept to characters that
 * can never be a separator of the outgoing interchange (separators are punctuation the writer
 * chooses; letters, digits, spaces and a few marks are safe).
 */
function safe(value: string, max: number): string {
  return value.replace(/[^A-Za-z0-9 .,\-/#&()']/g, '').slice(0, max);
}

/** Trailing empty elements are left out, as X12 requires. */
function trim(values: string[]): string[] {
  let end = values.length;
  while (end > 1 && values[end - 1] === '') end--;
  return values.slice(0, end);
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
