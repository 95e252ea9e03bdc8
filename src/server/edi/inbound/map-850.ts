import { ORDER_LIMITS, type CreateOrderInput, type OrderDateField } from '../../../shared/orders';
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
 * An 850 purchase order as the order create command's body, by DESIGN.md's mapping ("Order
 * documents with retailers"). Pure: the ids (brand, retailer, facility) and the picksheet code
 * are the caller's, from the connection and the facility code found here.
 */

/** BEG01 (code list 353): 00 original, 01 cancellation, 07 duplicate; anything else is refused. */
export type PoPurpose = 'original' | 'cancellation' | 'duplicate';
const PURPOSES: Record<string, PoPurpose> = {
  '00': 'original',
  '01': 'cancellation',
  '07': 'duplicate',
};

/** The create body without what the connection decides. */
export type MappedOrder = Omit<
  CreateOrderInput,
  'brand_id' | 'retailer_id' | 'facility_id' | 'picksheet_code'
>;

/** A PO line's facts the order's items do not keep: for the 855 and the 810. */
export interface PoLine {
  /** PO101, echoed by the 855 and 810 (the item's `pass_through.line_id`). */
  line_id: string;
  /** Index of the line's item in `order.items`. */
  item_index: number;
  /** PO104, null when the PO gives no price (the 810 then refuses that line). */
  unit_price: number | null;
  /** PO103 (EA, CA, ...) and PO105 (price basis), as sent. */
  unit_of_measure: string;
  price_basis: string;
  /** Buyer's item number (IN), when sent. */
  buyer_item: string | null;
}

export interface Mapped850 {
  purpose: PoPurpose | null;
  po_number: string | null;
  /** BEG05 as YYYY-MM-DD. */
  po_date: string | null;
  /** N104 of N1*SF or N1*WH: a facility's `external_facility_code`. */
  facility_code: string | null;
  order: MappedOrder;
  lines: PoLine[];
  faults: SegmentFault[];
}

/** DTM01 qualifiers (element 374) and the order date each one fills. */
const DATE_QUALIFIERS: Record<string, OrderDateField> = {
  '010': 'requested_ship_date',
  '002': 'requested_delivery_date',
  '001': 'cancel_by_date',
  '037': 'earliest_ship_date',
  '038': 'latest_ship_date',
  '064': 'earliest_delivery_date',
  '063': 'latest_delivery_date',
};

type Party = 'ST' | 'BT' | 'Z7' | 'SF' | 'WH';
const PARTIES = new Set<string>(['ST', 'BT', 'Z7', 'SF', 'WH']);

interface Address {
  name: string | null;
  id_qualifier: string;
  id: string | null;
  lines: string[];
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
}

type Item = MappedOrder['items'][number];

export function map850(set: ReadSet): Mapped850 {
  const collect = collectFaults();
  const result: Mapped850 = {
    purpose: null,
    po_number: null,
    po_date: null,
    facility_code: null,
    order: { items: [] },
    lines: [],
    faults: collect.faults,
  };
  const dates: Partial<Record<OrderDateField, string>> = {};
  const parties = new Map<Party, Address>();
  let party: Address | null = null;
  let item: Item | null = null;
  let sawBeg = false;
  let ctt: ReadSegment | null = null;
  const lineIds = new Set<string>();
  let quantityTotal = 0;

  for (const segment of set.segments) {
    const tag = segment.values[0] ?? '';
    if (tag !== 'N3' && tag !== 'N4') party = null;
    switch (tag) {
      case 'BEG':
        sawBeg = true;
        readBeg(collect, segment, result);
        break;
      case 'REF':
        if (element(segment, 1) === 'DP') {
          const dept = textElement(collect, segment, 2, ORDER_LIMITS.code, 'The department', '127');
          if (dept) result.order.dept_number = dept;
        }
        break;
      case 'DTM':
        readDate(collect, segment, dates);
        break;
      case 'N1': {
        const code = element(segment, 1);
        if (!PARTIES.has(code)) break;
        party = {
          name: textElement(collect, segment, 2, ORDER_LIMITS.text, `The ${code} name`, '93'),
          id_qualifier: element(segment, 3),
          id: textElement(collect, segment, 4, ORDER_LIMITS.code, `The ${code} code`, '67'),
          lines: [],
          city: null,
          state: null,
          zip: null,
          country: null,
        };
        parties.set(code as Party, party);
        break;
      }
      case 'N3':
        if (party) {
          for (const n of [1, 2]) {
            const line = textElement(collect, segment, n, ORDER_LIMITS.text, 'An address line');
            if (line) party.lines.push(line);
          }
        }
        break;
      case 'N4':
        if (party) {
          party.city = textElement(collect, segment, 1, ORDER_LIMITS.text, 'The city', '19');
          party.state = textElement(collect, segment, 2, ORDER_LIMITS.text, 'The state', '156');
          party.zip = textElement(collect, segment, 3, ORDER_LIMITS.code, 'The postal code', '116');
          party.country = textElement(collect, segment, 4, ORDER_LIMITS.text, 'The country', '26');
        }
        break;
      case 'PO1': {
        item = readPo1(collect, segment, result, lineIds);
        const quantity = x12Decimal(element(segment, 2));
        if (quantity !== null) quantityTotal += quantity;
        break;
      }
      case 'PID':
        if (item && element(segment, 1) === 'F' && item.description === undefined) {
          const text = textElement(
            collect,
            segment,
            5,
            ORDER_LIMITS.description,
            'The item description',
            '352',
          );
          if (text) item.description = text;
        }
        break;
      case 'PO4':
        if (item) readPo4(collect, segment, item);
        break;
      case 'CTT':
        ctt = segment;
        break;
      default:
        // Other segments (CUR, ITD, TD5, FOB, SAC, MSG, ...) are allowed and not used.
        break;
    }
  }

  if (!sawBeg) {
    collect.segment('BEG', 2, SEGMENT_ERROR.mandatorySegmentMissing, 'The PO has no BEG segment');
  }
  if (result.order.items.length === 0) {
    collect.segment(
      'PO1',
      Math.max(set.segments.length - 1, 1),
      SEGMENT_ERROR.mandatorySegmentMissing,
      'The PO has no lines (PO1)',
      'PO1',
    );
  }
  if (ctt) checkTotals(collect, ctt, result.lines.length, quantityTotal);
  applyParties(result, parties);
  if (Object.keys(dates).length > 0) result.order.dates = dates;
  return result;
}

function readBeg(collect: FaultCollector, segment: ReadSegment, result: Mapped850) {
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
      purpose === ''
        ? 'BEG01 (purpose) is missing'
        : `BEG01 purpose ${purpose} is not taken: 00 original, 01 cancellation or 07 duplicate (changes come as an 860)`,
    );
  }
  const type = textElement(collect, segment, 2, ORDER_LIMITS.code, 'The PO type', '92');
  if (type) result.order.purchase_order_type = type;
  const poNumber = textElement(collect, segment, 3, ORDER_LIMITS.code, 'The PO number', '324');
  if (poNumber) {
    result.po_number = poNumber;
    result.order.po_number = poNumber;
  } else if (poNumber === '') {
    collect.element(
      segment,
      { position: 3, reference: '324', code: ELEMENT_ERROR.mandatoryElementMissing },
      'The PO number (BEG03) is missing',
    );
  }
  const dateText = element(segment, 5);
  const date = x12Date(dateText);
  if (date) result.po_date = date;
  else {
    collect.element(
      segment,
      {
        position: 5,
        reference: '373',
        code: dateText === '' ? ELEMENT_ERROR.mandatoryElementMissing : ELEMENT_ERROR.invalidDate,
        ...(dateText === '' ? {} : { value: dateText }),
      },
      dateText === ''
        ? 'The PO date (BEG05) is missing'
        : `The PO date "${dateText}" is not a date (CCYYMMDD)`,
    );
  }
}

function readDate(
  collect: FaultCollector,
  segment: ReadSegment,
  dates: Partial<Record<OrderDateField, string>>,
) {
  const field = DATE_QUALIFIERS[element(segment, 1)];
  if (!field) return;
  const text = element(segment, 2);
  const date = x12Date(text);
  if (date) {
    dates[field] = date;
    return;
  }
  collect.element(
    segment,
    {
      position: 2,
      reference: '373',
      code: text === '' ? ELEMENT_ERROR.mandatoryElementMissing : ELEMENT_ERROR.invalidDate,
      ...(text === '' ? {} : { value: text }),
    },
    `The ${field.replaceAll('_', ' ')} "${text}" is not a date (CCYYMMDD)`,
  );
}

/** PO106/PO107 onwards: pairs of product ID qualifier (235) and product ID (234). */
function productIds(segment: ReadSegment): Map<string, { id: string; position: number }> {
  const ids = new Map<string, { id: string; position: number }>();
  for (let n = 6; n + 1 < segment.values.length; n += 2) {
    const qualifier = element(segment, n);
    const id = element(segment, n + 1).trim();
    if (qualifier !== '' && id !== '' && !ids.has(qualifier))
      ids.set(qualifier, { id, position: n + 1 });
  }
  return ids;
}

function readPo1(
  collect: FaultCollector,
  segment: ReadSegment,
  result: Mapped850,
  lineIds: Set<string>,
): Item | null {
  const loop = { loop: 'PO1' };
  if (result.order.items.length >= ORDER_LIMITS.itemsPerOrder) {
    collect.segment(
      'PO1',
      segment.position,
      SEGMENT_ERROR.loopOverMaximum,
      `The PO has more than ${ORDER_LIMITS.itemsPerOrder} lines`,
      'PO1',
    );
    return null;
  }
  let lineId = textElement(collect, segment, 1, ORDER_LIMITS.code, 'The line number', '350');
  if (lineId === '') lineId = String(result.lines.length + 1); // no PO101: the line's ordinal
  if (lineId !== null && lineIds.has(lineId)) {
    collect.element(
      segment,
      { position: 1, reference: '350', code: ELEMENT_ERROR.invalidCodeValue, value: lineId },
      `Line number ${lineId} is used twice in the PO`,
      loop,
    );
  }
  if (lineId !== null) lineIds.add(lineId);

  const quantityText = element(segment, 2);
  const quantity = x12Quantity(quantityText, ORDER_LIMITS.quantity);
  if (quantity === null) {
    collect.element(
      segment,
      {
        position: 2,
        reference: '330',
        code:
          quantityText === ''
            ? ELEMENT_ERROR.mandatoryElementMissing
            : ELEMENT_ERROR.invalidCharacter,
        ...(quantityText === '' ? {} : { value: quantityText }),
      },
      `Line ${lineId ?? '?'}: the quantity "${quantityText}" is not a whole number above 0`,
      loop,
    );
  }
  const priceText = element(segment, 4);
  const price = priceText === '' ? null : x12Decimal(priceText);
  if (priceText !== '' && (price === null || price < 0)) {
    collect.element(
      segment,
      { position: 4, reference: '212', code: ELEMENT_ERROR.invalidCharacter, value: priceText },
      `Line ${lineId ?? '?'}: the unit price "${priceText}" is not a number`,
      loop,
    );
  }

  const ids = productIds(segment);
  const upc = ids.get('UP');
  const vendor = ids.get('VN');
  const sku = vendor ?? upc;
  if (!sku) {
    collect.element(
      segment,
      { position: 7, reference: '234', code: ELEMENT_ERROR.conditionalElementMissing },
      `Line ${lineId ?? '?'}: neither a UPC (UP) nor a vendor item number (VN) is given`,
      loop,
    );
  }
  for (const id of [upc, vendor]) {
    if (id && id.id.length > ORDER_LIMITS.code) {
      collect.element(
        segment,
        {
          position: id.position,
          reference: '234',
          code: ELEMENT_ERROR.elementTooLong,
          value: id.id,
        },
        `Line ${lineId ?? '?'}: the item number is longer than ${ORDER_LIMITS.code} characters`,
        loop,
      );
    }
  }

  const item: Item = { sku: sku?.id ?? '', quantity: quantity ?? 0 };
  if (upc) item.upc = upc.id;
  if (vendor) item.vendor_pn = vendor.id;
  result.order.items.push(item);
  result.lines.push({
    line_id: lineId ?? '',
    item_index: result.order.items.length - 1,
    unit_price: price !== null && price >= 0 ? price : null,
    unit_of_measure: element(segment, 3),
    price_basis: element(segment, 5),
    buyer_item: ids.get('IN')?.id ?? null,
  });
  return item;
}

function readPo4(collect: FaultCollector, segment: ReadSegment, item: Item) {
  const text = element(segment, 1);
  if (text === '') return;
  const pack = x12Quantity(text, ORDER_LIMITS.quantity);
  if (pack !== null) {
    item.case_pack_quantity = pack;
    return;
  }
  // A bad pack size does not make the order wrong: noted (AK5 E), the line keeps no pack.
  collect.element(
    segment,
    { position: 1, reference: '356', code: ELEMENT_ERROR.invalidCharacter, value: text },
    `The case pack "${text}" is not a whole number above 0; the line was taken without it`,
    { loop: 'PO1', severity: 'note' },
  );
}

/**
 * CTT01 must be the number of PO1 lines and CTT02, when sent, the sum of their quantities. X12
 * has no AK4 code for a wrong total; 7 (invalid value) is the nearest.
 */
function checkTotals(collect: FaultCollector, ctt: ReadSegment, lines: number, quantity: number) {
  const count = element(ctt, 1);
  if (x12Decimal(count) !== lines) {
    collect.element(
      ctt,
      { position: 1, reference: '354', code: ELEMENT_ERROR.invalidCodeValue, value: count },
      `CTT01 says ${count || 'nothing'} lines; the PO has ${lines}`,
    );
  }
  const hash = element(ctt, 2);
  if (hash !== '' && x12Decimal(hash) !== quantity) {
    collect.element(
      ctt,
      { position: 2, reference: '347', code: ELEMENT_ERROR.invalidCodeValue, value: hash },
      `CTT02 says the quantities add up to ${hash}; the lines add up to ${quantity}`,
    );
  }
}

/**
 * N1 loops to the order's contacts: ST ship-to (N104 with qualifier 92, the buyer's location
 * code, is the DC number; another qualifier is the facility code), BT bill-to and Z7 mark-for
 * (N104 is the address number); SF ship-from or WH warehouse names our facility.
 */
function applyParties(result: Mapped850, parties: Map<Party, Address>) {
  const common = (a: Address) => ({
    name: a.name || null,
    address_line1: a.lines[0] ?? null,
    address_line2: a.lines[1] ?? null,
    city: a.city || null,
    country: a.country || null,
    zip: a.zip || null,
  });
  const address: NonNullable<MappedOrder['address_data']> = {};
  const shipTo = parties.get('ST');
  if (shipTo) {
    address.ship_to_contact = {
      ...common(shipTo),
      province: shipTo.state || null,
      ...(shipTo.id_qualifier === '92'
        ? { dc_number: shipTo.id || null }
        : { facility_code: shipTo.id || null }),
    };
  }
  const billTo = parties.get('BT');
  if (billTo) {
    address.bill_to_contact = {
      ...common(billTo),
      province: billTo.state || null,
      address_number: billTo.id || null,
    };
  }
  const markFor = parties.get('Z7');
  if (markFor) {
    address.mark_for_contact = {
      ...common(markFor),
      state: markFor.state || null,
      address_number: markFor.id || null,
    };
  }
  if (Object.keys(address).length > 0) result.order.address_data = address;
  result.facility_code = parties.get('SF')?.id || parties.get('WH')?.id || null;
}
