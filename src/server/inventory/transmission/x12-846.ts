/**
 * Builds an X12 846 (Inventory Inquiry/Advice) interchange: ISA/GS/ST envelope, BIA heading,
 * optional REF*VR and N1*SF, one LIN/QTY pair per item, CTT totals. Pure: no I/O.
 * See shared/notes/x12-846.md for the rules followed here.
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
  type X12Separators,
} from '../../core/x12-text';
import type { AdviceLine, EdiSettings } from './types';

export type { X12Separators } from '../../core/x12-text';

/** Starts every error this builder throws. */
const LABEL = 'X12 846';

export const X12_CONTENT_TYPE = 'application/edi-x12';

export interface Build846Input {
  edi: EdiSettings;
  /** ISA13, 1..999999999 */
  interchangeControlNumber: number;
  /** GS06, 1..999999999 */
  groupControlNumber: number;
  /** BIA03; sanitised and truncated to 30 characters */
  referenceId: string;
  /** Envelope and BIA dates/times, in UTC */
  createdAt: Date;
  shipFrom?: { name: string; code: string } | null;
  vendorId?: string | null;
  items: AdviceLine[];
}

export interface Built846 {
  text: string;
  separators: X12Separators;
  /** Segments from ST through SE inclusive (= SE01) */
  segmentCount: number;
  fileName: string;
}

type Segment = string[];

/** ST02; a single transaction set per group, so it may restart at 0001 each time. */
const TRANSACTION_CONTROL_NUMBER = '0001';
/** X12 element maximum lengths (004010) for values we must not silently cut. */
const MAX_SKU_LENGTH = 48; // LIN03 (234)
const MAX_REF_LENGTH = 30; // REF02 (127), BIA03 (127)
const MAX_NAME_LENGTH = 60; // N102 (93)
const MAX_ID_CODE_LENGTH = 80; // N104 (67)

export function build846(input: Build846Input): Built846 {
  const edi = validateEdiSettings(input.edi, LABEL);
  const isa13 = String(
    controlNumber(input.interchangeControlNumber, 'interchangeControlNumber', LABEL),
  ).padStart(9, '0');
  const gs06 = String(controlNumber(input.groupControlNumber, 'groupControlNumber', LABEL));
  const createdAt = validateDate(input.createdAt, LABEL);

  const transaction = transactionSegments(input, createdAt);
  // prettier-ignore
  const head: Segment[] = [
    ['GS', 'IB', edi.sender_id, edi.receiver_id, ccyymmdd(createdAt), hhmm(createdAt), gs06, 'X', edi.version],
    ...transaction.heading,
  ];
  const tail: Segment[] = [...transaction.trailer, ['GE', '1', gs06], ['IEA', '1', isa13]];

  const isa12 = edi.version.slice(0, 5);
  const usesRepetition = Number(isa12) >= FIRST_ISA12_WITH_REPETITION;
  const separators = chooseSeparators(
    dataTextOf([[edi.sender_qualifier, edi.receiver_qualifier], ...head, ...tail]) +
      transaction.lines.dataText,
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
    text:
      serialise([isa, ...head], separators) +
      serialisedLines(transaction.lines, separators) +
      serialise(tail, separators),
    separators,
    segmentCount:
      transaction.heading.length + transaction.lines.segmentCount + transaction.trailer.length,
    fileName: `846_${isa13}.x12`,
  };
}

/** ST through SE of the 846: heading, the shared line-item loop, CTT and SE. */
function transactionSegments(input: Build846Input, createdAt: Date) {
  const referenceId = cleanText(input.referenceId).slice(0, MAX_REF_LENGTH);
  if (referenceId === '') throw new Error('X12 846: referenceId (BIA03) is empty');

  const segments: Segment[] = [
    ['ST', '846', TRANSACTION_CONTROL_NUMBER],
    ['BIA', '00', 'MM', referenceId, ccyymmdd(createdAt), hhmm(createdAt)],
  ];
  const vendorId = cleanText(input.vendorId ?? '');
  if (vendorId !== '') {
    segments.push(['REF', 'VR', limitedId(vendorId, MAX_REF_LENGTH, 'vendorId (REF02)')]);
  }
  const shipFrom = shipFromSegment(input.shipFrom);
  if (shipFrom) segments.push(shipFrom);

  const lines = lineItemsOf(input.items);
  const trailer: Segment[] = [['CTT', String(input.items.length), String(lines.quantityTotal)]];
  // SE01 counts ST..SE: the heading, two segments per item, CTT and SE itself.
  trailer.push([
    'SE',
    String(segments.length + lines.segmentCount + 2),
    TRANSACTION_CONTROL_NUMBER,
  ]);
  return { heading: segments, lines, trailer };
}

/**
 * The LIN/QTY loop of a snapshot; every EDI connection of one advice shares it. It keeps the
 * checked SKUs and quantities rather than 2,000 segment arrays: a 1,000-line loop is the bulk of
 * an advice's allocations, and so of its garbage-collection time.
 */
interface LineItems {
  skus: string[];
  quantities: string[];
  /** Two per item: LIN and QTY. */
  segmentCount: number;
  quantityTotal: number;
  /** Every element value of the loop, for choosing separators that occur nowhere in the data. */
  dataText: string;
  /** Serialised text per separator pair, so four documents format the loop once. */
  textBySeparators: Map<string, string>;
}
const lineItemsCache = new WeakMap<readonly AdviceLine[], LineItems>();

function lineItemsOf(items: readonly AdviceLine[]): LineItems {
  const cached = lineItemsCache.get(items);
  if (cached) return cached;
  const skus: string[] = [];
  const quantities: string[] = [];
  const dataParts: string[] = [];
  let quantityTotal = 0;
  items.forEach((item, index) => {
    const sku = limitedId(cleanText(item.sku), MAX_SKU_LENGTH, `items[${index}].sku`);
    if (sku === '') throw new Error(`X12 846: items[${index}].sku is empty`);
    const quantity = validateQuantity(item.available_quantity, index);
    quantityTotal += quantity;
    // status and estimated_back_in_stock_date are deliberately not transmitted in 846.
    skus.push(sku);
    quantities.push(String(quantity));
    dataParts.push(String(index + 1), 'SK', sku, '33', String(quantity), 'EA');
  });
  const lines = {
    skus,
    quantities,
    segmentCount: 2 * items.length,
    quantityTotal,
    dataText: `LINQTY${dataParts.join('')}`,
    textBySeparators: new Map(),
  };
  lineItemsCache.set(items, lines);
  return lines;
}

/**
 * `LIN*<n>*SK*<sku>~QTY*33*<quantity>*EA~` per item, written out directly: no element of the loop
 * is ever empty (an empty SKU is refused), so there is no trailing empty element to drop.
 */
function serialisedLines(lines: LineItems, separators: X12Separators): string {
  const key = separators.element + separators.segment;
  let text = lines.textBySeparators.get(key);
  if (text === undefined) {
    const { element: e, segment: s } = separators;
    const parts: string[] = new Array<string>(lines.skus.length);
    for (let i = 0; i < lines.skus.length; i++) {
      parts[i] =
        `LIN${e}${i + 1}${e}SK${e}${lines.skus[i]}${s}QTY${e}33${e}${lines.quantities[i]}${e}EA${s}`;
    }
    text = parts.join('');
    lines.textBySeparators.set(key, text);
  }
  return text;
}

/** N1*SF*<name>*92*<code>; drops what is empty so no element ends a segment empty. */
function shipFromSegment(shipFrom: Build846Input['shipFrom']): Segment | null {
  if (!shipFrom) return null;
  const name = cleanText(shipFrom.name).slice(0, MAX_NAME_LENGTH);
  const code = limitedId(cleanText(shipFrom.code), MAX_ID_CODE_LENGTH, 'shipFrom.code (N104)');
  if (code !== '') return ['N1', 'SF', name, '92', code];
  return name !== '' ? ['N1', 'SF', name] : null;
}

/** All element values in one string (a plain loop: this runs on every 1000-line document). */
function dataTextOf(segments: Segment[]): string {
  let text = '';
  for (const segment of segments) for (const element of segment) text += element;
  return text;
}

function serialise(segments: Segment[], separators: X12Separators): string {
  let text = '';
  for (const segment of segments) {
    text += withoutTrailingEmpties(segment).join(separators.element) + separators.segment;
  }
  return text;
}

/** Identifiers are not cut: a shortened id would silently point at something else. */
function limitedId(value: string, maxLength: number, field: string): string {
  if (value.length > maxLength) {
    throw new Error(`X12 846: ${field} is longer than ${maxLength} characters: "${value}"`);
  }
  return value;
}

function validateQuantity(quantity: number, index: number): number {
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw new Error(
      `X12 846: items[${index}].available_quantity must be a non-negative integer, got ${quantity}`,
    );
  }
  return quantity;
}
