import {
  GROUP_ERROR,
  INTERCHANGE_ERROR,
  SEGMENT_ERROR,
  SET_ERROR,
  type GroupFault,
  type InterchangeFault,
  type SegmentFault,
  type SetFault,
} from './codes';

/**
 * A strict X12 reader (docs/decisions/0177-own-strict-x12-reader.md). It reads the separators
 * from the fixed-width ISA, splits the interchange into groups and sets, and checks every
 * envelope: control numbers (ISA13/IEA02, GS06/GE02, ST02/SE02) and counts (SE01, GE01, IEA01).
 * It never throws: whatever the input, the answer lists what is wrong and where, with the codes a
 * 997 (or a TA1) carries.
 */

export interface Separators {
  element: string;
  component: string;
  segment: string;
}

/** One segment: `values[0]` is the tag, `values[n]` element n, so X12 positions read as written. */
export interface ReadSegment {
  values: string[];
  /** 1-based position in its transaction set (ST = 1); 0 outside a set. */
  position: number;
  /** Character offset of the segment in the input, for messages. */
  offset: number;
}

export interface ReadSet {
  /** ST01, e.g. 850. */
  id: string;
  /** ST02. */
  control: string;
  /** ST to SE inclusive (SE absent when the trailer is missing). */
  segments: ReadSegment[];
  setFaults: SetFault[];
  segmentFaults: SegmentFault[];
}

export interface ReadGroup {
  /** The GS segment: GS01 functional ID, GS02 sender, GS03 receiver, GS06 control, GS08 version. */
  header: ReadSegment;
  functionalId: string;
  control: string;
  version: string;
  /** GE01 as sent (a number), or null when the trailer or the value is missing. */
  declaredSetCount: number | null;
  sets: ReadSet[];
  faults: GroupFault[];
}

export interface Interchange {
  separators: Separators;
  /** ISA01..ISA16 (index 0 is 'ISA'), trailing blanks of the fixed-width fields kept. */
  isa: string[];
  /** ISA05/ISA06, ISA07/ISA08 and ISA13, trimmed. */
  senderQualifier: string;
  senderId: string;
  receiverQualifier: string;
  receiverId: string;
  control: string;
  testIndicator: string;
  groups: ReadGroup[];
}

export interface ReadResult {
  /** Null when no ISA could be read at all (nothing to acknowledge). */
  interchange: Interchange | null;
  faults: InterchangeFault[];
}

const ISA_LENGTH = 106;
/** Offsets of the element separator in a fixed-width ISA (after ISA and each of ISA01..ISA15). */
const ISA_SEPARATOR_OFFSETS = [3, 6, 17, 20, 31, 34, 50, 53, 69, 76, 81, 83, 89, 99, 101, 103];
const TAG = /^[A-Z][A-Z0-9]{1,2}$/;
const DIGITS = /^\d+$/;

export function readX12(input: string): ReadResult {
  try {
    return read(input);
  } catch (error) {
    // A bug here must still not take the caller down: the file is refused with the reason.
    return {
      interchange: null,
      faults: [
        {
          code: INTERCHANGE_ERROR.invalidContent,
          message: `The file could not be read (${String(error)})`,
        },
      ],
    };
  }
}

function read(input: string): ReadResult {
  const faults: InterchangeFault[] = [];
  const fault = (code: InterchangeFault['code'], message: string) => faults.push({ code, message });
  // A byte-order mark or blank lines before the ISA are common in files; nothing else is allowed.
  const text = input.replace(/^\uFEFF?[\s]*/, '');
  if (!text.startsWith('ISA')) {
    fault(INTERCHANGE_ERROR.invalidContent, 'The file does not start with an ISA segment');
    return { interchange: null, faults };
  }
  if (text.length < ISA_LENGTH) {
    fault(INTERCHANGE_ERROR.prematureEnd, 'The file ends inside the ISA segment');
    return { interchange: null, faults };
  }
  const element = text.charAt(3);
  const component = text.charAt(104);
  const segment = text.charAt(105);
  const badSeparator = (c: string) => /[A-Za-z0-9 ]/.test(c);
  if (badSeparator(element) || ISA_SEPARATOR_OFFSETS.some((at) => text.charAt(at) !== element)) {
    fault(
      INTERCHANGE_ERROR.invalidElementSeparator,
      'The ISA segment is not 106 characters of fixed-width fields',
    );
    return { interchange: null, faults };
  }
  if (badSeparator(component) || component === element) {
    fault(INTERCHANGE_ERROR.invalidComponentSeparator, 'ISA16 is not a usable component separator');
    return { interchange: null, faults };
  }
  if (badSeparator(segment) || segment === element || segment === component) {
    fault(
      INTERCHANGE_ERROR.invalidSegmentTerminator,
      'The character after ISA16 is not a usable segment terminator',
    );
    return { interchange: null, faults };
  }
  const separators: Separators = { element, component, segment };
  const isa = text.slice(0, ISA_LENGTH - 1).split(element);
  if (isa.length !== 17) {
    fault(INTERCHANGE_ERROR.invalidContent, 'The ISA segment does not have 16 elements');
    return { interchange: null, faults };
  }
  checkIsaFields(isa, fault);

  const segments = splitSegments(text, ISA_LENGTH, separators, fault);
  const interchange: Interchange = {
    separators,
    isa,
    senderQualifier: (isa[5] ?? '').trim(),
    senderId: (isa[6] ?? '').trim(),
    receiverQualifier: (isa[7] ?? '').trim(),
    receiverId: (isa[8] ?? '').trim(),
    control: isa[13] ?? '',
    testIndicator: isa[15] ?? '',
    groups: [],
  };
  buildGroups(interchange, segments, fault);
  return { interchange, faults };
}

function checkIsaFields(
  isa: string[],
  fault: (code: InterchangeFault['code'], message: string) => void,
) {
  const value = (n: number) => isa[n] ?? '';
  if (value(5).trim() === '') fault(INTERCHANGE_ERROR.invalidSenderQualifier, 'ISA05 is blank');
  if (value(6).trim() === '') fault(INTERCHANGE_ERROR.invalidSender, 'ISA06 (the sender) is blank');
  if (value(7).trim() === '') fault(INTERCHANGE_ERROR.invalidReceiverQualifier, 'ISA07 is blank');
  if (value(8).trim() === '') {
    fault(INTERCHANGE_ERROR.invalidReceiver, 'ISA08 (the receiver) is blank');
  }
  if (!/^\d{6}$/.test(value(9)) || !validYymmdd(value(9))) {
    fault(INTERCHANGE_ERROR.invalidDate, `ISA09 "${value(9)}" is not a date (YYMMDD)`);
  }
  if (!/^([01]\d|2[0-3])[0-5]\d$/.test(value(10))) {
    fault(INTERCHANGE_ERROR.invalidTime, `ISA10 "${value(10)}" is not a time (HHMM)`);
  }
  if (!/^\d{9}$/.test(value(13))) {
    fault(
      INTERCHANGE_ERROR.invalidControlNumber,
      `ISA13 "${value(13)}" is not a 9-digit control number`,
    );
  }
}

function validYymmdd(text: string): boolean {
  const month = Number(text.slice(2, 4));
  const day = Number(text.slice(4, 6));
  if (month < 1 || month > 12 || day < 1) return false;
  const year = 2000 + Number(text.slice(0, 2));
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The segments after the ISA. Line breaks after a terminator are layout, not data. */
function splitSegments(
  text: string,
  from: number,
  separators: Separators,
  fault: (code: InterchangeFault['code'], message: string) => void,
): ReadSegment[] {
  const segments: ReadSegment[] = [];
  let start = from;
  while (start < text.length) {
    let end = text.indexOf(separators.segment, start);
    const terminated = end !== -1;
    if (!terminated) end = text.length;
    const raw = text.slice(start, end);
    const leading = raw.length - raw.replace(/^[\r\n]+/, '').length;
    const body = raw.replace(/^[\r\n]+/, '').replace(/[\r\n]+$/, '');
    if (body !== '') {
      if (!terminated) {
        fault(
          INTERCHANGE_ERROR.prematureEnd,
          `The file ends without a segment terminator after "${body.slice(0, 20)}"`,
        );
      }
      segments.push({
        values: body.split(separators.element),
        position: 0,
        offset: start + leading,
      });
    }
    start = end + 1;
  }
  return segments;
}

function buildGroups(
  interchange: Interchange,
  segments: ReadSegment[],
  fault: (code: InterchangeFault['code'], message: string) => void,
) {
  let group: ReadGroup | null = null;
  let open: ReadSet | null = null;
  let ended = false;
  let strayReported = false;
  const stray = (segment: ReadSegment, where: string) => {
    if (strayReported) return;
    strayReported = true;
    fault(
      INTERCHANGE_ERROR.invalidControlStructure,
      `Segment ${segment.values[0] ?? ''} at character ${segment.offset} is ${where}`,
    );
  };
  const closeSet = (trailer: ReadSegment | null) => {
    if (!open) return;
    const set: ReadSet = open;
    open = null;
    if (!trailer) {
      set.setFaults.push({
        code: SET_ERROR.trailerMissing,
        message: `Transaction set ${set.id} ${set.control} has no SE trailer`,
      });
      return;
    }
    const count = trailer.values[1] ?? '';
    if (!DIGITS.test(count) || Number(count) !== set.segments.length) {
      set.setFaults.push({
        code: SET_ERROR.segmentCountMismatch,
        message: `SE01 says ${count || 'nothing'} segments; the set has ${set.segments.length}`,
      });
    }
    const control = trailer.values[2] ?? '';
    if (control !== set.control) {
      set.setFaults.push({
        code: SET_ERROR.controlNumberMismatch,
        message: `SE02 "${control}" does not match ST02 "${set.control}"`,
      });
    }
  };
  const closeGroup = (trailer: ReadSegment | null) => {
    if (!group) return;
    closeSet(null);
    const current: ReadGroup = group;
    group = null;
    if (!trailer) {
      current.faults.push({
        code: GROUP_ERROR.trailerMissing,
        message: `Group ${current.functionalId} ${current.control} has no GE trailer`,
      });
      return;
    }
    const count = trailer.values[1] ?? '';
    current.declaredSetCount = DIGITS.test(count) ? Number(count) : null;
    if (current.declaredSetCount !== current.sets.length) {
      current.faults.push({
        code: GROUP_ERROR.setCountMismatch,
        message: `GE01 says ${count || 'nothing'} transaction sets; the group has ${current.sets.length}`,
      });
    }
    const control = trailer.values[2] ?? '';
    if (control !== current.control) {
      current.faults.push({
        code: GROUP_ERROR.controlNumberMismatch,
        message: `GE02 "${control}" does not match GS06 "${current.control}"`,
      });
    }
  };

  for (const segment of segments) {
    const tag = segment.values[0] ?? '';
    if (ended) {
      fault(INTERCHANGE_ERROR.invalidContent, `Data after the IEA trailer (segment ${tag})`);
      return;
    }
    if (tag === 'GS') {
      if (group) closeGroup(null);
      group = openGroup(segment);
      interchange.groups.push(group);
    } else if (tag === 'GE') {
      if (group) closeGroup(segment);
      else stray(segment, 'a GE outside a group');
    } else if (tag === 'ST') {
      if (!group) {
        stray(segment, 'a transaction set outside a group');
        continue;
      }
      closeSet(null);
      const set = openSet(segment, group);
      group.sets.push(set);
      open = set;
    } else if (tag === 'SE') {
      if (open) {
        addToSet(open, segment);
        closeSet(segment);
      } else stray(segment, 'an SE outside a transaction set');
    } else if (tag === 'IEA') {
      if (group) closeGroup(null);
      checkIea(interchange, segment, fault);
      ended = true;
    } else if (open) {
      addToSet(open, segment);
    } else {
      stray(segment, 'outside a transaction set');
    }
  }
  if (!ended) {
    if (group) closeGroup(null);
    fault(INTERCHANGE_ERROR.prematureEnd, 'The interchange has no IEA trailer');
  }
}

function openGroup(header: ReadSegment): ReadGroup {
  const faults: GroupFault[] = [];
  const control = header.values[6] ?? '';
  if (!/^\d{1,9}$/.test(control)) {
    faults.push({
      code: GROUP_ERROR.invalidControlNumber,
      message: `GS06 "${control}" is not a control number (1 to 9 digits)`,
    });
  }
  return {
    header,
    functionalId: header.values[1] ?? '',
    control,
    version: header.values[8] ?? '',
    declaredSetCount: null,
    sets: [],
    faults,
  };
}

/** The ST02s of each group's sets so far: a lookup, so a group of 10,000 sets is not quadratic. */
const setControlsOf = new WeakMap<ReadGroup, Set<string>>();

function openSet(header: ReadSegment, group: ReadGroup): ReadSet {
  const id = header.values[1] ?? '';
  const control = header.values[2] ?? '';
  const set: ReadSet = { id, control, segments: [], setFaults: [], segmentFaults: [] };
  if (!/^\d{3}$/.test(id)) {
    set.setFaults.push({
      code: SET_ERROR.invalidSetIdentifier,
      message: `ST01 "${id}" is not a transaction set identifier`,
    });
  }
  if (!/^\d{4,9}$/.test(control)) {
    set.setFaults.push({
      code: SET_ERROR.invalidControlNumber,
      message: `ST02 "${control}" is not a control number (4 to 9 digits)`,
    });
  } else {
    let seen = setControlsOf.get(group);
    if (!seen) setControlsOf.set(group, (seen = new Set(group.sets.map((other) => other.control))));
    if (seen.has(control)) {
      set.setFaults.push({
        code: SET_ERROR.controlNumberNotUnique,
        message: `ST02 ${control} is used twice in group ${group.control}`,
      });
    }
    seen.add(control);
  }
  addToSet(set, header);
  return set;
}

function addToSet(set: ReadSet, segment: ReadSegment) {
  segment.position = set.segments.length + 1;
  set.segments.push(segment);
  const tag = segment.values[0] ?? '';
  if (!TAG.test(tag)) {
    set.segmentFaults.push({
      segment: tag.slice(0, 3),
      position: segment.position,
      code: SEGMENT_ERROR.unrecognizedSegmentId,
      elements: [],
      severity: 'reject',
      message: `Segment ${segment.position} has no valid segment ID ("${tag.slice(0, 10)}")`,
    });
  }
}

function checkIea(
  interchange: Interchange,
  trailer: ReadSegment,
  fault: (code: InterchangeFault['code'], message: string) => void,
) {
  const count = trailer.values[1] ?? '';
  if (!DIGITS.test(count) || Number(count) !== interchange.groups.length) {
    fault(
      INTERCHANGE_ERROR.invalidGroupCount,
      `IEA01 says ${count || 'nothing'} groups; the interchange has ${interchange.groups.length}`,
    );
  }
  const control = trailer.values[2] ?? '';
  if (control !== interchange.control) {
    fault(
      INTERCHANGE_ERROR.controlNumberMismatch,
      `IEA02 "${control}" does not match ISA13 "${interchange.control}"`,
    );
  }
}

/** Element n of a segment ('' when absent), so callers never index out of range. */
export function element(segment: ReadSegment, n: number): string {
  return segment.values[n] ?? '';
}

/** Component m (1-based) of element n. */
export function component(segment: ReadSegment, n: number, m: number, separators: Separators) {
  return element(segment, n).split(separators.component)[m - 1] ?? '';
}
