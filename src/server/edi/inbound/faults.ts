import { isCalendarDate } from '../../../shared/inventory';
import {
  ELEMENT_ERROR,
  SEGMENT_ERROR,
  type ElementFault,
  type SegmentErrorCode,
  type SegmentFault,
} from '../x12/codes';
import { element, type ReadSegment } from '../x12/reader';

/**
 * Collects the faults a mapper finds, one AK3 per segment with its AK4s, so the 997 points at
 * the exact segment and element. Severity `reject` refuses the set; `note` only reports.
 */
export interface FaultCollector {
  readonly faults: SegmentFault[];
  /** An element of `segment` is wrong (AK3 code 8 with an AK4). */
  element(
    segment: ReadSegment,
    fault: ElementFault,
    message: string,
    options?: { loop?: string; severity?: SegmentFault['severity'] },
  ): void;
  /** The segment itself is wrong, or missing (then `tag` and `position` say where it was due). */
  segment(
    tag: string,
    position: number,
    code: SegmentErrorCode,
    message: string,
    loop?: string,
  ): void;
  readonly rejected: boolean;
}

export function collectFaults(): FaultCollector {
  const faults: SegmentFault[] = [];
  return {
    faults,
    element(segment, fault, message, options = {}) {
      const severity = options.severity ?? 'reject';
      const tag = segment.values[0] ?? '';
      const existing = faults.find(
        (f) => f.position === segment.position && f.code === SEGMENT_ERROR.segmentHasElementErrors,
      );
      if (existing) {
        existing.elements.push(fault);
        existing.message = `${existing.message}; ${message}`;
        if (severity === 'reject') existing.severity = 'reject';
        return;
      }
      faults.push({
        segment: tag,
        position: segment.position,
        ...(options.loop === undefined ? {} : { loop: options.loop }),
        code: SEGMENT_ERROR.segmentHasElementErrors,
        elements: [fault],
        severity,
        message,
      });
    },
    segment(tag, position, code, message, loop) {
      faults.push({
        segment: tag,
        position,
        ...(loop === undefined ? {} : { loop }),
        code,
        elements: [],
        severity: 'reject',
        message,
      });
    },
    get rejected() {
      return faults.some((fault) => fault.severity === 'reject');
    },
  };
}

/** An X12 date (CCYYMMDD) as YYYY-MM-DD, or null when it is not a real date. */
export function x12Date(value: string): string | null {
  if (!/^\d{8}$/.test(value)) return null;
  const date = `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
  return isCalendarDate(date) ? date : null;
}

/** An X12 decimal (type R: optional sign, digits, optional point), or null. */
export function x12Decimal(value: string): number | null {
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(value)) return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/** A whole positive quantity (a decimal like 24.0 counts), or null. */
export function x12Quantity(value: string, max: number): number | null {
  const number = x12Decimal(value);
  if (number === null || !Number.isInteger(number) || number <= 0 || number > max) return null;
  return number;
}

/**
 * Element n of a segment as text, trimmed; '' when absent. Too long for `max`: an AK4 code 5 and
 * null, so the caller leaves the field out.
 */
export function textElement(
  collector: FaultCollector,
  segment: ReadSegment,
  n: number,
  max: number,
  what: string,
  reference?: string,
): string | null {
  const value = element(segment, n).trim();
  if (value.length > max) {
    collector.element(
      segment,
      {
        position: n,
        ...(reference === undefined ? {} : { reference }),
        code: ELEMENT_ERROR.elementTooLong,
        value,
      },
      `${what} is longer than ${max} characters`,
    );
    return null;
  }
  return value;
}
