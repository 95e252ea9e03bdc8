/**
 * A generic X12 4010 interchange writer: ISA/GS around one or more transaction sets (ST…SE),
 * then GE/IEA. Pure: no I/O. The builders of each document (856, 855, 810, 997) produce only the
 * segments between ST and SE; this file adds the envelope, the counts (SE01, GE01, IEA01) and
 * the separators, which are chosen so that none occurs in the data (X12 has no escaping).
 * The separator and validation rules are core/x12-text.ts, shared with the 846 builder.
 */
import {
  ccyymmdd,
  chooseSeparators,
  cleanText,
  controlNumber,
  FIRST_ISA12_WITH_REPETITION,
  hhmm,
  validateDate,
  validateEdiSettings,
  withoutTrailingEmpties,
  yymmdd,
  type EdiSettings,
  type X12Separators,
} from '../../core/x12-text';

export { ccyymmdd, cleanText, hhmm, type X12Separators } from '../../core/x12-text';

/** Starts every error this writer throws. */
const LABEL = 'X12';

export const X12_CONTENT_TYPE = 'application/edi-x12';

/** One segment: its tag (e.g. `BSN`) then its elements; a component is joined by the writer. */
export type Segment = readonly (string | readonly string[])[];

/** GS01 per transaction set (ST01) this app writes or reads. */
export const FUNCTIONAL_IDS = {
  '850': 'PO',
  '860': 'PC',
  '855': 'PR',
  '856': 'SH',
  '810': 'IN',
  '997': 'FA',
} as const;
export type TransactionSetType = keyof typeof FUNCTIONAL_IDS;
export type FunctionalId = (typeof FUNCTIONAL_IDS)[TransactionSetType];

const SET_TYPE_OF: Record<FunctionalId, TransactionSetType> = {
  PO: '850',
  PC: '860',
  PR: '855',
  SH: '856',
  IN: '810',
  FA: '997',
};

export interface InterchangeInput {
  edi: EdiSettings;
  /** GS01: every set of the group has the matching ST01 (SH → 856, FA → 997, …). */
  functionalId: FunctionalId;
  /** ISA13 = IEA02, 1..999999999 */
  interchangeControlNumber: number;
  /** GS06 = GE02, 1..999999999 */
  groupControlNumber: number;
  /** ISA09/ISA10 and GS04/GS05, in UTC. */
  createdAt: Date;
  /**
   * The body of each transaction set: the segments strictly between ST and SE (the writer adds
   * ST and SE). A set that starts with ST is refused, so nothing is enveloped twice.
   */
  transactionSets: Segment[][];
  /** ST02 per set; default `0001`, `0002`, … in order (unique within the group, as required). */
  transactionControlNumbers?: string[];
}

export interface WrittenInterchange {
  text: string;
  separators: X12Separators;
  /** ISA13, nine digits. */
  interchangeControlNumber: string;
  /** GS06 as written. */
  groupControlNumber: string;
  /** ST02 of each set, in order. */
  transactionControlNumbers: string[];
  /** SE01 of each set (ST through SE inclusive). */
  segmentCounts: number[];
  /** e.g. `856_000000101.x12` */
  fileName: string;
}

export function writeInterchange(input: InterchangeInput): WrittenInterchange {
  const edi = validateEdiSettings(input.edi, LABEL);
  const setType = SET_TYPE_OF[input.functionalId];
  if (!setType) throw new Error(`X12: unknown functional id "${String(input.functionalId)}"`);
  const isa13 = String(
    controlNumber(input.interchangeControlNumber, 'interchangeControlNumber', LABEL),
  ).padStart(9, '0');
  const gs06 = String(controlNumber(input.groupControlNumber, 'groupControlNumber', LABEL));
  const createdAt = validateDate(input.createdAt, LABEL);
  if (input.transactionSets.length === 0) throw new Error('X12: no transaction set to write');
  const stNumbers = transactionNumbers(input);

  const sets: Segment[][] = input.transactionSets.map((body, index) => {
    body.forEach((segment, position) =>
      checkSegment(segment, `set ${index + 1}, segment ${position + 1}`),
    );
    if (body.some((segment) => segment[0] === 'ST' || segment[0] === 'SE')) {
      throw new Error(
        `X12: set ${index + 1} contains ST or SE; pass only the segments between them`,
      );
    }
    const st02 = stNumbers[index]!;
    // SE01 counts ST through SE inclusive.
    return [['ST', setType, st02], ...body, ['SE', String(body.length + 2), st02]];
  });
  // prettier-ignore
  const gs: Segment = ['GS', input.functionalId, edi.sender_id, edi.receiver_id, ccyymmdd(createdAt), hhmm(createdAt), gs06, 'X', edi.version];
  const tail: Segment[] = [
    ['GE', String(sets.length), gs06],
    ['IEA', '1', isa13],
  ];
  const all: Segment[] = [gs, ...sets.flat(), ...tail];
  const cleaned = all.map(cleanSegment);

  const isa12 = edi.version.slice(0, 5);
  const usesRepetition = Number(isa12) >= FIRST_ISA12_WITH_REPETITION;
  const separators = chooseSeparators(
    edi.sender_qualifier + edi.receiver_qualifier + dataTextOf(cleaned),
    usesRepetition,
    LABEL,
  );
  // prettier-ignore
  const isa: Segment = [
    'ISA', '00', ' '.repeat(10), '00', ' '.repeat(10),
    edi.sender_qualifier, edi.sender_id.padEnd(15), edi.receiver_qualifier, edi.receiver_id.padEnd(15),
    yymmdd(createdAt), hhmm(createdAt), separators.repetition ?? 'U', isa12, isa13, '0',
    edi.usage_indicator, separators.component,
  ];
  return {
    text: serialise([isa, ...cleaned], separators),
    separators,
    interchangeControlNumber: isa13,
    groupControlNumber: gs06,
    transactionControlNumbers: stNumbers,
    segmentCounts: sets.map((set) => set.length),
    fileName: `${setType}_${isa13}.x12`,
  };
}

function transactionNumbers(input: InterchangeInput): string[] {
  const given = input.transactionControlNumbers;
  if (!given) {
    return input.transactionSets.map((_, index) => String(index + 1).padStart(4, '0'));
  }
  if (given.length !== input.transactionSets.length) {
    throw new Error('X12: one transaction control number per set is required');
  }
  for (const number of given) {
    // ST02 (329) is 4 to 9 characters; we only write digits.
    if (!/^\d{4,9}$/.test(number)) {
      throw new Error(`X12: transaction control number must be 4-9 digits, got "${number}"`);
    }
  }
  if (new Set(given).size !== given.length) {
    throw new Error('X12: transaction control numbers repeat within the group');
  }
  return [...given];
}

function checkSegment(segment: Segment, where: string): void {
  const tag = segment[0];
  if (typeof tag !== 'string' || !/^[A-Z][A-Z0-9]{1,2}$/.test(tag)) {
    throw new Error(`X12: ${where} has no valid segment tag: ${JSON.stringify(tag)}`);
  }
}

function cleanSegment(segment: Segment): Segment {
  return segment.map((element, index) => {
    if (index === 0) return element;
    return typeof element === 'string' ? cleanText(element) : element.map(cleanText);
  });
}

function dataTextOf(segments: Segment[]): string {
  let text = '';
  for (const segment of segments) {
    for (const element of segment) text += typeof element === 'string' ? element : element.join('');
  }
  return text;
}

function serialise(segments: Segment[], separators: X12Separators): string {
  let text = '';
  for (const segment of segments) {
    const elements = segment.map((element) =>
      typeof element === 'string'
        ? element
        : withoutTrailingEmpties(element).join(separators.component),
    );
    text += withoutTrailingEmpties(elements).join(separators.element) + separators.segment;
  }
  return text;
}
