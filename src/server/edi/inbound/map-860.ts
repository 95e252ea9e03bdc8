import { ORDER_LIMITS } from '../../../shared/orders';
import { ELEMENT_ERROR, SEGMENT_ERROR, type SegmentFault } from '../x12/codes';
import { element, type ReadSegment, type ReadSet } from '../x12/reader';
import {
  collectFaults,
  textElement,
  x12Date,
  x12Decimal,
  x12Quantity,
  type FaultCollector,
} from './faults';

/**
 * An 860 purchase order change (BCH + POC loops) as a list of changes keyed by PO and line id.
 * Pure; `applyPoChange` (po-change.ts) decides whether the order can still take them.
 */

/** One change to a PO. `change_type` is POC02 as sent (AI, DI, QI, QD, PC, CA), for the log. */
export type PoChange =
  | { kind: 'cancel' }
  | {
      kind: 'add';
      line_id: string;
      change_type: string;
      sku: string;
      upc: string | null;
      vendor_pn: string | null;
      quantity: number;
      unit_price: number | null;
      unit_of_measure: string;
      description: string | null;
    }
  | { kind: 'delete'; line_id: string; change_type: string }
  | {
      kind: 'quantity';
      line_id: string;
      change_type: string;
      /** The line's new quantity ordered (POC03). */
      quantity: number;
      /** QI up, QD down; null for CA (changes to a line), which says no direction. */
      direction: 'up' | 'down' | null;
    }
  | { kind: 'price'; line_id: string; change_type: string; unit_price: number };

export interface Mapped860 {
  /** BCH01: 00 or 04 change, 01 cancellation of the whole PO. */
  purpose: 'change' | 'cancellation' | null;
  po_number: string | null;
  /** BCH06 as YYYY-MM-DD. */
  po_date: string | null;
  changes: PoChange[];
  faults: SegmentFault[];
}

const PURPOSES: Record<string, Mapped860['purpose']> = {
  '00': 'change',
  '04': 'change',
  '01': 'cancellation',
};

export function map860(set: ReadSet): Mapped860 {
  const collect = collectFaults();
  const result: Mapped860 = {
    purpose: null,
    po_number: null,
    po_date: null,
    changes: [],
    faults: collect.faults,
  };
  let sawBch = false;
  let pocCount = 0;
  let ctt: ReadSegment | null = null;
  let added: Extract<PoChange, { kind: 'add' }> | null = null;
  for (const segment of set.segments) {
    const tag = segment.values[0] ?? '';
    if (tag !== 'PID') added = null;
    if (tag === 'BCH') {
      sawBch = true;
      readBch(collect, segment, result);
    } else if (tag === 'POC') {
      pocCount++;
      const changes = readPoc(collect, segment);
      result.changes.push(...changes);
      const last = changes.at(-1);
      if (last?.kind === 'add') added = last;
    } else if (tag === 'PID' && added && element(segment, 1) === 'F' && !added.description) {
      added.description =
        textElement(collect, segment, 5, ORDER_LIMITS.description, 'The item description', '352') ||
        null;
    } else if (tag === 'CTT') {
      ctt = segment;
    }
  }
  if (!sawBch) {
    collect.segment(
      'BCH',
      2,
      SEGMENT_ERROR.mandatorySegmentMissing,
      'The change has no BCH segment',
    );
  }
  if (result.purpose === 'cancellation') {
    result.changes = [{ kind: 'cancel' }];
  } else if (result.purpose === 'change' && pocCount === 0) {
    collect.segment(
      'POC',
      Math.max(set.segments.length - 1, 1),
      SEGMENT_ERROR.mandatorySegmentMissing,
      'The change names no line (POC)',
      'POC',
    );
  }
  if (ctt) {
    const count = element(ctt, 1);
    if (count !== '' && x12Decimal(count) !== pocCount) {
      collect.element(
        ctt,
        { position: 1, reference: '354', code: ELEMENT_ERROR.invalidCodeValue, value: count },
        `CTT01 says ${count} lines; the change has ${pocCount}`,
      );
    }
  }
  return result;
}

function readBch(collect: FaultCollector, segment: ReadSegment, result: Mapped860) {
  const purpose = element(segment, 1);
  result.purpose = PURPOSES[purpose] ?? null;
  if (!result.purpose) {
    collect.element(
      segment,
      {
        position: 1,
        reference: '353',
        code:
          purpose === '' ? ELEMENT_ERROR.mandatoryElementMissing : ELEMENT_ERROR.invalidCodeValue,
        value: purpose,
      },
      `BCH01 purpose "${purpose}" is not taken: 04 change or 01 cancellation`,
    );
  }
  const poNumber = textElement(collect, segment, 3, ORDER_LIMITS.code, 'The PO number', '324');
  if (poNumber) result.po_number = poNumber;
  else if (poNumber === '') {
    collect.element(
      segment,
      { position: 3, reference: '324', code: ELEMENT_ERROR.mandatoryElementMissing },
      'The PO number (BCH03) is missing',
    );
  }
  const dateText = element(segment, 6);
  if (dateText !== '') {
    result.po_date = x12Date(dateText);
    if (!result.po_date) {
      collect.element(
        segment,
        { position: 6, reference: '373', code: ELEMENT_ERROR.invalidDate, value: dateText },
        `The PO date "${dateText}" is not a date (CCYYMMDD)`,
      );
    }
  }
}

/** POC08/POC09 onwards: product ID qualifier (235) and product ID (234) pairs. */
function productIds(segment: ReadSegment): Map<string, string> {
  const ids = new Map<string, string>();
  for (let n = 8; n + 1 < segment.values.length; n += 2) {
    const qualifier = element(segment, n);
    const id = element(segment, n + 1).trim();
    if (qualifier !== '' && id !== '' && !ids.has(qualifier)) ids.set(qualifier, id);
  }
  return ids;
}

function readPoc(collect: FaultCollector, segment: ReadSegment): PoChange[] {
  const loop = { loop: 'POC' };
  const lineId = textElement(collect, segment, 1, ORDER_LIMITS.code, 'The line number', '350');
  const type = element(segment, 2);
  if (!lineId) {
    if (lineId === '') {
      collect.element(
        segment,
        { position: 1, reference: '350', code: ELEMENT_ERROR.mandatoryElementMissing },
        'A change line (POC) has no line number',
        loop,
      );
    }
    return [];
  }
  const what = `Line ${lineId}`;
  const quantity = () => {
    const text = element(segment, 3);
    const value = x12Quantity(text, ORDER_LIMITS.quantity);
    if (value === null) {
      collect.element(
        segment,
        {
          position: 3,
          reference: '330',
          code:
            text === '' ? ELEMENT_ERROR.conditionalElementMissing : ELEMENT_ERROR.invalidCharacter,
          ...(text === '' ? {} : { value: text }),
        },
        `${what}: the quantity "${text}" is not a whole number above 0`,
        loop,
      );
    }
    return value;
  };
  const price = (required: boolean) => {
    const text = element(segment, 6);
    if (text === '' && !required) return null;
    const value = x12Decimal(text);
    if (value === null || value < 0) {
      collect.element(
        segment,
        {
          position: 6,
          reference: '212',
          code:
            text === '' ? ELEMENT_ERROR.conditionalElementMissing : ELEMENT_ERROR.invalidCharacter,
          ...(text === '' ? {} : { value: text }),
        },
        `${what}: the unit price "${text}" is not a number`,
        loop,
      );
      return null;
    }
    return value;
  };
  const base = { line_id: lineId, change_type: type };
  switch (type) {
    case 'AI': {
      const ids = productIds(segment);
      const sku = ids.get('VN') ?? ids.get('UP');
      if (!sku) {
        collect.element(
          segment,
          { position: 9, reference: '234', code: ELEMENT_ERROR.conditionalElementMissing },
          `${what}: an added line needs a UPC (UP) or a vendor item number (VN)`,
          loop,
        );
      }
      const count = quantity();
      const unitPrice = price(false);
      if (!sku || count === null) return [];
      return [
        {
          kind: 'add',
          ...base,
          sku,
          upc: ids.get('UP') ?? null,
          vendor_pn: ids.get('VN') ?? null,
          quantity: count,
          unit_price: unitPrice,
          unit_of_measure: element(segment, 5),
          description: null,
        },
      ];
    }
    case 'DI':
      return [{ kind: 'delete', ...base }];
    case 'QI':
    case 'QD': {
      const count = quantity();
      return count === null
        ? []
        : [
            {
              kind: 'quantity',
              ...base,
              quantity: count,
              direction: type === 'QI' ? 'up' : 'down',
            },
          ];
    }
    case 'PC': {
      const unitPrice = price(true);
      return unitPrice === null ? [] : [{ kind: 'price', ...base, unit_price: unitPrice }];
    }
    case 'CA': {
      // Changes to a line: its new quantity and/or its new price, whichever is sent.
      const changes: PoChange[] = [];
      if (element(segment, 3) !== '') {
        const count = quantity();
        if (count !== null)
          changes.push({ kind: 'quantity', ...base, quantity: count, direction: null });
      }
      const unitPrice = price(false);
      if (unitPrice !== null) changes.push({ kind: 'price', ...base, unit_price: unitPrice });
      return changes;
    }
    case 'NC':
      return [];
    default:
      collect.element(
        segment,
        {
          position: 2,
          reference: '670',
          code:
            type === '' ? ELEMENT_ERROR.mandatoryElementMissing : ELEMENT_ERROR.invalidCodeValue,
          value: type,
        },
        `${what}: change type "${type}" is not taken (AI, DI, QI, QD, PC, CA or NC)`,
        loop,
      );
      return [];
  }
}
