/**
 * The rules every X12 document we write shares: the interchange identities checked, separators
 * that occur nowhere in the data (X12 has no escaping), no trailing empty elements, control
 * numbers and dates in range, control characters out. Used by the 846 builder (inventory) and
 * the order documents' writer (edi); `label` starts each error (`X12 846`, `X12`).
 */

/** The interchange identities of a connection (ISA05-08, GS08, ISA15). */
export interface EdiSettings {
  sender_qualifier: string;
  sender_id: string;
  receiver_qualifier: string;
  receiver_id: string;
  /** GS08, e.g. 004010 */
  version: string;
  usage_indicator: 'P' | 'T';
}

export interface X12Separators {
  element: string;
  component: string;
  segment: string;
  repetition?: string;
}

export const MAX_CONTROL_NUMBER = 999_999_999;
/** ISA12 from which ISA11 carries the repetition separator instead of `U`. */
export const FIRST_ISA12_WITH_REPETITION = 402;

const PREFERRED_SEPARATORS = { element: '*', component: '>', segment: '~', repetition: '^' };
/**
 * Fallback separators, tried in this order for each role when the data (or another role) already
 * uses the preferred one. Printable ASCII punctuation only: never letters, digits or space, which
 * the fixed-width ISA and the segment tags need.
 */
const SEPARATOR_CANDIDATES = [...'|^!`{}\\@#$%&+=?<;:"'];

export function validateEdiSettings(edi: EdiSettings, label: string): EdiSettings {
  const qualifier = (value: string, field: string): string => {
    if (!/^[A-Z0-9]{2}$/.test(value)) {
      throw new Error(`${label}: edi.${field} must be 2 letters/digits (e.g. ZZ), got "${value}"`);
    }
    return value;
  };
  // ISA06/ISA08 are fixed-width 15 ASCII characters: a longer id is a configuration error.
  const interchangeId = (value: string, field: string): string => {
    const id = value.trim();
    if (!/^[\x20-\x7E]{1,15}$/.test(id)) {
      throw new Error(
        `${label}: edi.${field} must be 1-15 printable ASCII characters, got "${value}"`,
      );
    }
    return id;
  };
  if (!/^\d{6}$/.test(edi.version)) {
    throw new Error(`${label}: edi.version must be 6 digits (e.g. 004010), got "${edi.version}"`);
  }
  if (edi.usage_indicator !== 'P' && edi.usage_indicator !== 'T') {
    throw new Error(
      `${label}: edi.usage_indicator must be P or T, got "${String(edi.usage_indicator)}"`,
    );
  }
  return {
    sender_qualifier: qualifier(edi.sender_qualifier, 'sender_qualifier'),
    sender_id: interchangeId(edi.sender_id, 'sender_id'),
    receiver_qualifier: qualifier(edi.receiver_qualifier, 'receiver_qualifier'),
    receiver_id: interchangeId(edi.receiver_id, 'receiver_id'),
    version: edi.version,
    usage_indicator: edi.usage_indicator,
  };
}

/** Picks distinct separators that occur nowhere in the data: X12 has no escaping. */
export function chooseSeparators(
  dataText: string,
  withRepetition: boolean,
  label: string,
): X12Separators {
  // Only the ~25 possible separators matter, so test those rather than indexing every character.
  const unavailable = new Set(
    [...Object.values(PREFERRED_SEPARATORS), ...SEPARATOR_CANDIDATES].filter((c) =>
      dataText.includes(c),
    ),
  );
  const pick = (role: keyof typeof PREFERRED_SEPARATORS): string => {
    const choice = [PREFERRED_SEPARATORS[role], ...SEPARATOR_CANDIDATES].find(
      (candidate) => !unavailable.has(candidate),
    );
    if (choice === undefined) {
      throw new Error(
        `${label}: cannot choose a ${role} separator: the data contains every candidate character`,
      );
    }
    unavailable.add(choice);
    return choice;
  };
  const element = pick('element');
  const component = pick('component');
  const segment = pick('segment');
  return withRepetition
    ? { element, component, segment, repetition: pick('repetition') }
    : { element, component, segment };
}

/** Safety net: X12 forbids trailing empty elements (`QTY*33*1*EA*`). */
export function withoutTrailingEmpties<T extends string>(values: readonly T[]): T[] {
  let end = values.length;
  while (end > 1 && values[end - 1] === '') end--;
  return values.slice(0, end);
}

/** Control characters (CR, LF, tab...) would break the document; each run becomes one space. */
export function cleanText(value: string): string {
  return value.replace(/\p{Cc}+/gu, ' ').trim();
}

export function controlNumber(value: number, field: string, label: string): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONTROL_NUMBER) {
    throw new Error(`${label}: ${field} must be an integer 1..${MAX_CONTROL_NUMBER}, got ${value}`);
  }
  return value;
}

export function validateDate(date: Date, label: string): Date {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new Error(`${label}: createdAt is not a valid date`);
  }
  return date;
}

const pad2 = (value: number): string => String(value).padStart(2, '0');
export const ccyymmdd = (date: Date): string =>
  `${date.getUTCFullYear()}${pad2(date.getUTCMonth() + 1)}${pad2(date.getUTCDate())}`;
export const yymmdd = (date: Date): string => ccyymmdd(date).slice(2);
export const hhmm = (date: Date): string =>
  `${pad2(date.getUTCHours())}${pad2(date.getUTCMinutes())}`;
