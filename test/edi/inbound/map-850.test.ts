import { describe, expect, it } from 'vitest';
import { createOrderBodySchema } from '../../../src/shared/orders';
import { map850 } from '../../../src/server/edi/inbound/map-850';
import { readX12 } from '../../../src/server/edi/x12/reader';
import { editSegment, golden, setElement } from './edi-text';

const PO = golden('850-two-orders.edi');
const IDS = {
  brand_id: '11111111-1111-4111-8111-111111111111',
  retailer_id: '22222222-2222-4222-8222-222222222222',
  facility_id: '33333333-3333-4333-8333-333333333333',
};

function mapped(text: string, set = 0) {
  const interchange = readX12(text).interchange;
  if (!interchange) throw new Error('unreadable');
  return map850(interchange.groups[0]!.sets[set]!);
}

describe('map850 on the golden PO', () => {
  const first = mapped(PO);

  it('maps the heading, dates and contacts as DESIGN.md says', () => {
    expect(first.faults).toEqual([]);
    expect(first).toMatchObject({
      purpose: 'original',
      po_number: '4500012345',
      po_date: '2026-01-15',
      facility_code: 'WH-WEST',
    });
    expect(first.order).toMatchObject({
      po_number: '4500012345',
      purchase_order_type: 'SA',
      dept_number: '042',
      dates: {
        requested_ship_date: '2026-01-20',
        requested_delivery_date: '2026-01-27',
        cancel_by_date: '2026-02-05',
        earliest_ship_date: '2026-01-19',
        latest_ship_date: '2026-01-22',
        earliest_delivery_date: '2026-01-26',
        latest_delivery_date: '2026-01-29',
      },
      address_data: {
        ship_to_contact: {
          name: 'NORTHMARKET DC 6094',
          address_line1: '4100 COMMERCE PKWY',
          address_line2: 'DOCK 7',
          city: 'COLUMBUS',
          province: 'OH',
          zip: '43219',
          country: 'US',
          dc_number: '6094',
        },
        bill_to_contact: {
          name: 'NORTHMARKET ACCOUNTS PAYABLE',
          address_line1: 'PO BOX 1200',
          city: 'MINNEAPOLIS',
          province: 'MN',
          address_number: '0001',
        },
        mark_for_contact: {
          name: 'STORE 1187',
          city: 'DAYTON',
          state: 'OH',
          address_number: '1187',
        },
      },
    });
  });

  it('maps the lines: VN is the SKU, else the UPC; PID*F, PO4 and the prices per line', () => {
    expect(first.order.items).toEqual([
      {
        sku: 'ACME-TEE-BLK-M',
        upc: '012345678905',
        vendor_pn: 'ACME-TEE-BLK-M',
        quantity: 24,
        description: 'CREW TEE BLACK MEDIUM',
        case_pack_quantity: 6,
      },
      {
        sku: '012345678912',
        upc: '012345678912',
        quantity: 12,
        description: 'CANVAS TOTE NATURAL',
        case_pack_quantity: 12,
      },
      {
        sku: 'ACME-JKT-NVY-L',
        upc: '012345678929',
        vendor_pn: 'ACME-JKT-NVY-L',
        quantity: 6,
        description: 'FIELD JACKET NAVY LARGE',
      },
    ]);
    expect(first.lines).toEqual([
      {
        line_id: '1',
        item_index: 0,
        unit_price: 12.5,
        unit_of_measure: 'EA',
        price_basis: 'PE',
        buyer_item: null,
      },
      {
        line_id: '2',
        item_index: 1,
        unit_price: 8.75,
        unit_of_measure: 'EA',
        price_basis: 'PE',
        buyer_item: null,
      },
      {
        line_id: '3',
        item_index: 2,
        unit_price: 45,
        unit_of_measure: 'EA',
        price_basis: 'PE',
        buyer_item: null,
      },
    ]);
  });

  it('is a body the order create command accepts', () => {
    for (const result of [first, mapped(PO, 1)]) {
      const body = { ...result.order, ...IDS, picksheet_code: result.po_number };
      const parsed = createOrderBodySchema.safeParse(body);
      expect(parsed.error?.issues ?? []).toEqual([]);
    }
  });

  it('the second PO: no price on a line is kept as null; ship-to qualifier 92 with a DC 0', () => {
    const second = mapped(PO, 1);
    expect(second.faults).toEqual([]);
    expect(second.order.purchase_order_type).toBe('DS');
    expect(second.facility_code).toBeNull();
    expect(second.lines.map((line) => [line.line_id, line.unit_price])).toEqual([
      ['10', 19.99],
      ['20', null],
    ]);
    expect(second.order.items.map((item) => item.sku)).toEqual(['012345678936', 'ACME-CAP-RED']);
  });
});

describe('map850 purposes and faults', () => {
  const begEdited = (n: number, value: string) =>
    mapped(editSegment(PO, 'BEG', (s) => setElement(s, n, value)));
  const ak = (result: ReturnType<typeof map850>) =>
    result.faults.map((f) => [
      f.segment,
      f.position,
      f.code,
      f.elements.map((e) => [e.position, e.code]),
    ]);

  it('BEG01 01 is a cancellation and 07 a duplicate; 04 is refused (AK403 7)', () => {
    expect(begEdited(1, '01')).toMatchObject({ purpose: 'cancellation', faults: [] });
    expect(begEdited(1, '07')).toMatchObject({ purpose: 'duplicate', faults: [] });
    const change = begEdited(1, '04');
    expect(change.purpose).toBeNull();
    expect(ak(change)).toEqual([['BEG', 2, '8', [[1, '7']]]]);
  });

  it('no PO number or no date: AK4 mandatory element missing (1); a bad date: 8', () => {
    expect(ak(begEdited(3, ''))).toEqual([['BEG', 2, '8', [[3, '1']]]]);
    expect(ak(begEdited(5, '20261301'))).toEqual([['BEG', 2, '8', [[5, '8']]]]);
    const dtm = mapped(editSegment(PO, 'DTM', (s) => setElement(s, 2, '2026013')));
    expect(ak(dtm)).toEqual([['DTM', 7, '8', [[2, '8']]]]);
  });

  it('no BEG: AK3 mandatory segment missing (3)', () => {
    expect(ak(mapped(editSegment(PO, 'BEG', (s) => s.replace('BEG', 'BEX'))))).toEqual([
      ['BEG', 2, '3', []],
    ]);
  });

  it('a bad PO1 line: quantity, price, missing item numbers, duplicate line number', () => {
    const po1 = (edit: (s: string) => string) => mapped(editSegment(PO, 'PO1', edit, 1));
    expect(ak(po1((s) => setElement(s, 2, '2X')))).toEqual([
      ['PO1', 28, '8', [[2, '6']]],
      ['CTT', 33, '8', [[2, '7']]],
    ]);
    expect(ak(po1((s) => setElement(s, 2, '0')))[0]).toEqual(['PO1', 28, '8', [[2, '6']]]);
    expect(ak(po1((s) => setElement(s, 4, 'abc')))).toEqual([['PO1', 28, '8', [[4, '6']]]]);
    expect(ak(po1((s) => s.split('*').slice(0, 6).join('*')))).toEqual([
      ['PO1', 28, '8', [[7, '2']]],
    ]);
    expect(ak(po1((s) => setElement(s, 1, '1')))).toEqual([['PO1', 28, '8', [[1, '7']]]]);
    const faults = po1((s) => setElement(s, 2, '2X')).faults;
    expect(faults[0]).toMatchObject({ loop: 'PO1', severity: 'reject' });
    expect(faults[0]!.message).toBe('Line 2: the quantity "2X" is not a whole number above 0');
  });

  it('a bad case pack is only noted: the line is taken without it', () => {
    const result = mapped(editSegment(PO, 'PO4', (s) => setElement(s, 1, 'six')));
    expect(result.faults).toMatchObject([
      { segment: 'PO4', severity: 'note', elements: [{ code: '6' }] },
    ]);
    expect(result.order.items[0]!.case_pack_quantity).toBeUndefined();
  });

  it('CTT01 and CTT02 must match the lines', () => {
    expect(ak(mapped(editSegment(PO, 'CTT', (s) => setElement(s, 1, '4'))))).toEqual([
      ['CTT', 33, '8', [[1, '7']]],
    ]);
    expect(ak(mapped(editSegment(PO, 'CTT', () => 'CTT*3')))).toEqual([]);
    expect(ak(mapped(editSegment(PO, 'CTT', () => 'CTT*3*41')))).toEqual([
      ['CTT', 33, '8', [[2, '7']]],
    ]);
  });

  it('too long values: AK403 5', () => {
    const long = 'X'.repeat(101);
    expect(ak(begEdited(3, long))).toEqual([['BEG', 2, '8', [[3, '5']]]]);
  });

  it('a PO with no lines', () => {
    let text = PO;
    for (let i = 0; i < 3; i++) text = editSegment(text, 'PO1', () => null);
    const result = mapped(text);
    expect(result.faults.some((f) => f.segment === 'PO1' && f.code === '3')).toBe(true);
  });
});
