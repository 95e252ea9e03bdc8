/**
 * X12 acknowledgment error codes, as a 997 carries them (4010 code lists), with words a clerk can
 * read. The reader and the mappers report these codes, so the 997 says exactly what was wrong.
 */

/** AK304, element 720: what is wrong with a segment. */
export const SEGMENT_ERROR = {
  unrecognizedSegmentId: '1',
  unexpectedSegment: '2',
  mandatorySegmentMissing: '3',
  loopOverMaximum: '4',
  segmentOverMaximumUse: '5',
  segmentNotInSet: '6',
  segmentOutOfSequence: '7',
  segmentHasElementErrors: '8',
} as const;
export type SegmentErrorCode = (typeof SEGMENT_ERROR)[keyof typeof SEGMENT_ERROR];

/** AK403, element 723: what is wrong with an element. */
export const ELEMENT_ERROR = {
  mandatoryElementMissing: '1',
  conditionalElementMissing: '2',
  tooManyElements: '3',
  elementTooShort: '4',
  elementTooLong: '5',
  invalidCharacter: '6',
  invalidCodeValue: '7',
  invalidDate: '8',
  invalidTime: '9',
  exclusionViolated: '10',
} as const;
export type ElementErrorCode = (typeof ELEMENT_ERROR)[keyof typeof ELEMENT_ERROR];

/** AK502, element 718: what is wrong with a transaction set as a whole. */
export const SET_ERROR = {
  notSupported: '1',
  trailerMissing: '2',
  controlNumberMismatch: '3',
  segmentCountMismatch: '4',
  segmentsInError: '5',
  invalidSetIdentifier: '6',
  invalidControlNumber: '7',
  controlNumberNotUnique: '23',
} as const;
export type SetErrorCode = (typeof SET_ERROR)[keyof typeof SET_ERROR];

/** AK905, element 716: what is wrong with a functional group as a whole. */
export const GROUP_ERROR = {
  notSupported: '1',
  versionNotSupported: '2',
  trailerMissing: '3',
  controlNumberMismatch: '4',
  setCountMismatch: '5',
  invalidControlNumber: '6',
} as const;
export type GroupErrorCode = (typeof GROUP_ERROR)[keyof typeof GROUP_ERROR];

/**
 * TA105, element I18: what is wrong with the interchange envelope. A 997 cannot carry these (a
 * TA1 would); the reader reports them and every group of a broken interchange is rejected.
 */
export const INTERCHANGE_ERROR = {
  controlNumberMismatch: '001',
  invalidSegmentTerminator: '004',
  invalidSenderQualifier: '005',
  invalidSender: '006',
  invalidReceiverQualifier: '007',
  invalidReceiver: '008',
  invalidDate: '014',
  invalidTime: '015',
  invalidControlNumber: '018',
  invalidGroupCount: '021',
  invalidControlStructure: '022',
  prematureEnd: '023',
  invalidContent: '024',
  invalidElementSeparator: '026',
  invalidComponentSeparator: '027',
} as const;
export type InterchangeErrorCode = (typeof INTERCHANGE_ERROR)[keyof typeof INTERCHANGE_ERROR];

/** An element's fault inside a segment (one AK4). */
export interface ElementFault {
  /** AK401: 1-based element position in the segment. */
  position: number;
  /** AK401-2: 1-based component position inside a composite, when the fault is in one. */
  component?: number;
  /** AK402: the data element reference number, when known (e.g. 330 for PO102). */
  reference?: string;
  code: ElementErrorCode;
  /** AK404: a copy of the bad value (absent when the element is missing). */
  value?: string;
}

/**
 * A segment's fault in a transaction set (one AK3 with its AK4s). `severity: 'note'` is noted in
 * the 997 but the set is still taken in (AK5 E); `'reject'` rejects the set (AK5 R).
 */
export interface SegmentFault {
  /** AK301: the segment's ID (its tag). */
  segment: string;
  /** AK302: 1-based position of the segment in the set, ST being 1. */
  position: number;
  /** AK303: the loop the segment is in (e.g. PO1), when it helps to find it. */
  loop?: string;
  code: SegmentErrorCode;
  elements: ElementFault[];
  severity: 'reject' | 'note';
  /** The same fault in words a clerk can act on. */
  message: string;
}

export interface SetFault {
  code: SetErrorCode;
  message: string;
}

export interface GroupFault {
  code: GroupErrorCode;
  message: string;
}

export interface InterchangeFault {
  code: InterchangeErrorCode;
  message: string;
}
