import { describe, expect, it } from 'vitest';
import { map850 } from '../../../src/server/edi/inbound/map-850';
import { map860, type PoChange } from '../../../src/server/edi/inbound/map-860';
import { applyPoChange, type ChangeableOrder } from '../../../src/server/edi/inbound/po-change';
import { readX12 } from '../../../src/server/edi/x12/reader';
import { editSegment, golden, setElement } from './edi-text';

const CHANGES = golden('860-changes.edi');

function setOf(text: string, n = 0) {
  const interchange = readX12(text).interchange;
  if (!interchange) throw new Error('unreadable');
  return interchange.groups[0]!.sets[n]!;
}

/** The golden 850's first PO as an order that can take changes. */
function goldenOrder(status: ChangeableOrder['status']): ChangeableOrder {
  const po = map850(setOf(golden('850-two-orders.edi')));
  return {
    status,
    po_number: po.po_number,
    lines: po.lines.map((line) => {
      const item = po.order.items[line.item_index]!;
      return {
        line_id: line.line_id,
        sku: item.sku,
        upc: item.upc ?? null,
        vendor_pn: item.vendor_pn ?? null,
        quantity: item.quantity,
        unit_price: line.unit_price,
        description: item.description ?? null,
      };
    }),
  };
}

describe('map860 on the golden change', () => {
  it('reads BCH and every POC change type', () => {
    const result = map860(setOf(CHANGES));
    expect(result.faults).toEqual([]);
    expect(result).toMatchObject({
      purpose: 'change',
      po_number: '4500012345',
      po_date: '2026-01-15',
    });
    expect(result.changes).toEqual<PoChange[]>([
      { kind: 'quantity', line_id: '1', change_type: 'QD', quantity: 18, direction: 'down' },
      { kind: 'price', line_id: '2', change_type: 'PC', unit_price: 8.25 },
      { kind: 'delete', line_id: '3', change_type: 'DI' },
      {
        kind: 'add',
        line_id: '4',
        change_type: 'AI',
        sku: 'ACME-HOOD-GRY-S',
        upc: '012345678943',
        vendor_pn: 'ACME-HOOD-GRY-S',
        quantity: 10,
        unit_price: 15,
        unit_of_measure: 'EA',
        description: 'HOODIE GREY SMALL',
      },
      { kind: 'quantity', line_id: '2', change_type: 'QI', quantity: 16, direction: 'up' },
    ]);
  });

  it('BCH01 01 cancels the whole PO', () => {
    expect(map860(setOf(CHANGES, 1))).toMatchObject({
      purpose: 'cancellation',
      po_number: '4500012346',
      changes: [{ kind: 'cancel' }],
      faults: [],
    });
  });

  it('CA carries a new quantity and/or price', () => {
    const text = editSegment(CHANGES, 'POC', () => 'POC*1*CA*20**EA*11.00*PE');
    expect(map860(setOf(text)).changes.slice(0, 2)).toEqual([
      { kind: 'quantity', line_id: '1', change_type: 'CA', quantity: 20, direction: null },
      { kind: 'price', line_id: '1', change_type: 'CA', unit_price: 11 },
    ]);
  });
});

describe('map860 faults', () => {
  const ak = (text: string) =>
    map860(setOf(text)).faults.map((f) => [
      f.segment,
      f.position,
      f.code,
      f.elements.map((e) => [e.position, e.code]),
    ]);
  it('an unknown change type or purpose: AK403 7', () => {
    expect(ak(editSegment(CHANGES, 'POC', (s) => setElement(s, 2, 'RS')))).toEqual([
      ['POC', 4, '8', [[2, '7']]],
    ]);
    expect(ak(editSegment(CHANGES, 'BCH', (s) => setElement(s, 1, '05')))).toEqual([
      ['BCH', 2, '8', [[1, '7']]],
    ]);
  });
  it('a quantity change without a quantity, a price change without a price: AK403 2', () => {
    expect(ak(editSegment(CHANGES, 'POC', (s) => setElement(s, 3, '')))).toEqual([
      ['POC', 4, '8', [[3, '2']]],
    ]);
    expect(ak(editSegment(CHANGES, 'POC', (s) => setElement(s, 6, ''), 1))).toEqual([
      ['POC', 5, '8', [[6, '2']]],
    ]);
  });
  it('no PO number, no line number, a bad date, a wrong CTT01', () => {
    expect(ak(editSegment(CHANGES, 'BCH', (s) => setElement(s, 3, '')))).toEqual([
      ['BCH', 2, '8', [[3, '1']]],
    ]);
    expect(ak(editSegment(CHANGES, 'POC', (s) => setElement(s, 1, '')))).toEqual([
      ['POC', 4, '8', [[1, '1']]],
    ]);
    expect(ak(editSegment(CHANGES, 'BCH', (s) => setElement(s, 6, '20261340')))).toEqual([
      ['BCH', 2, '8', [[6, '8']]],
    ]);
    expect(ak(editSegment(CHANGES, 'CTT', () => 'CTT*4'))).toEqual([['CTT', 10, '8', [[1, '7']]]]);
  });
  it('no BCH: AK304 3', () => {
    expect(ak(editSegment(CHANGES, 'BCH', () => 'BEG*00*SA*1**20260101'))).toEqual([
      ['BCH', 2, '3', []],
    ]);
  });
});

describe('applyPoChange', () => {
  const changes = map860(setOf(CHANGES)).changes;

  it('applies the golden change to an Open or Picking order', () => {
    for (const status of ['Open', 'Picking'] as const) {
      const outcome = applyPoChange(goldenOrder(status), changes);
      if (!outcome.applied) throw new Error(outcome.reason);
      expect(outcome.cancel).toBe(false);
      expect(outcome.lines.map((l) => [l.line_id, l.sku, l.quantity, l.unit_price])).toEqual([
        ['1', 'ACME-TEE-BLK-M', 18, 12.5],
        ['2', '012345678912', 16, 8.25],
        ['4', 'ACME-HOOD-GRY-S', 10, 15],
      ]);
    }
  });

  it('leaves the given order untouched', () => {
    const order = goldenOrder('Open');
    const before = structuredClone(order);
    applyPoChange(order, changes);
    expect(order).toEqual(before);
  });

  it('refuses once the order is packed or later, in clerk words', () => {
    for (const status of ['Packed', 'Staged', 'Loaded', 'Shipped'] as const) {
      const outcome = applyPoChange(goldenOrder(status), changes);
      expect(outcome).toEqual({
        applied: false,
        reason: `PO 4500012345 was changed after its order was ${status.toLowerCase()}; the change was not applied. Check it with the retailer and change the order by hand if it still can be.`,
      });
    }
    expect(applyPoChange(goldenOrder('Cancelled'), changes)).toMatchObject({ applied: false });
  });

  it('a cancellation cancels an Open order', () => {
    expect(applyPoChange(goldenOrder('Open'), [{ kind: 'cancel' }])).toMatchObject({
      applied: true,
      cancel: true,
    });
    expect(applyPoChange(goldenOrder('Packed'), [{ kind: 'cancel' }])).toMatchObject({
      applied: false,
    });
  });

  it('refuses what does not fit the order, all or nothing', () => {
    const order = goldenOrder('Open');
    const refused = (list: PoChange[]) => {
      const outcome = applyPoChange(order, list);
      return outcome.applied ? null : outcome.reason;
    };
    expect(refused([{ kind: 'delete', line_id: '9', change_type: 'DI' }])).toBe(
      'PO 4500012345, line 9: the order has no such line; the change was not applied.',
    );
    expect(
      refused([
        { kind: 'quantity', line_id: '1', change_type: 'QI', quantity: 20, direction: 'up' },
      ]),
    ).toBe(
      'PO 4500012345, line 1: the retailer says the quantity goes up, but 20 is not more than 24; the change was not applied.',
    );
    expect(
      refused([
        { kind: 'quantity', line_id: '1', change_type: 'QD', quantity: 30, direction: 'down' },
      ]),
    ).toMatch(/goes down, but 30 is not less than 24/);
    const add = changes.find((c) => c.kind === 'add')!;
    expect(refused([{ ...add, line_id: '1' }])).toMatch(/adds a line the order already has/);
    expect(
      refused(
        ['1', '2', '3'].map((line_id) => ({ kind: 'delete', line_id, change_type: 'DI' }) as const),
      ),
    ).toMatch(/removes every line/);
  });
});
