/**
 * The 855 and 810 name an ingested order's lines by the PO's own line ids and prices
 * (order_po_lines), matched line by line, or by SKU when an edit changed the lines.
 */
import { describe, expect, it } from 'vitest';
import { poLinesOf, withStoredPoLines } from '../../src/server/edi/order-lines';

const items = [
  { line_number: 0, sku: 'A', upc: null, quantity: 2, pass_through_json: null },
  { line_number: 1, sku: 'B', upc: null, quantity: 3, pass_through_json: null },
];

describe('withStoredPoLines', () => {
  it('takes the PO line ids and unit prices line by line', () => {
    const lines = withStoredPoLines(poLinesOf(items), [
      { line_id: '0010', sku: 'A', unit_price: 12.5 },
      { line_id: '0020', sku: 'B', unit_price: 8.75 },
    ]);
    expect(lines.map((l) => [l.lineId, l.unitPrice])).toEqual([
      ['0010', 12.5],
      ['0020', 8.75],
    ]);
  });

  it('matches by SKU when the lines no longer line up, and leaves a line the PO lacks as it is', () => {
    const lines = withStoredPoLines(
      poLinesOf([
        ...items,
        { line_number: 2, sku: 'C', upc: null, quantity: 1, pass_through_json: null },
      ]),
      [
        { line_id: '0020', sku: 'B', unit_price: 8.75 },
        { line_id: '0010', sku: 'A', unit_price: 12.5 },
      ],
    );
    expect(lines.map((l) => [l.sku, l.lineId, l.unitPrice])).toEqual([
      ['A', '0010', 12.5],
      ['B', '0020', 8.75],
      ['C', '3', null],
    ]);
  });

  it('an order made another way keeps its pass_through ids and prices', () => {
    const own = poLinesOf([
      { ...items[0]!, pass_through_json: '{"line_id":"7","unit_price":"4.5"}' },
    ]);
    expect(withStoredPoLines(own, [])).toEqual(own);
    expect(own[0]).toMatchObject({ lineId: '7', unitPrice: 4.5 });
  });
});
