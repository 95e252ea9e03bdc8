/**
 * `parseInventoryAdvice` checks a plainly valid body by hand and leaves everything else to the
 * schema (`parseInventoryAdviceWithSchema`). Both must give the very same answer, value and key
 * order included, for valid and invalid rows alike.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { benchItems } from '../../bench/fixtures';
import { parseInventoryAdvice, parseInventoryAdviceWithSchema } from '../../src/shared/inventory';

const sku = fc.oneof(
  fc.constantFrom(
    'A',
    ' A ',
    'SKU-1',
    'sku-1',
    '',
    '   ',
    'a\tb',
    'é',
    'x'.repeat(48),
    'x'.repeat(49),
  ),
  fc.string({ maxLength: 50 }),
  fc.integer(),
  fc.constant(null),
);
const quantity = fc.oneof(
  fc.integer({ min: -5, max: 1_000_000_000 }),
  fc.double({ noNaN: false }),
  fc.constantFrom('12', ' 7 ', '-0', '-3', '5.5', 'abc', '', '999999999', '1000000000', true, null),
  fc.constant([]),
  fc.constant({}),
);
const status = fc.oneof(
  fc.constantFrom('DISCONTINUED', ' discontinued ', 'temporarily_unavailable', 'OTHER', '', null),
  fc.integer(),
  fc.string({ maxLength: 5 }),
);
const date = fc.oneof(
  fc.constantFrom('2031-02-03', ' 2031-02-03 ', '2031-02-30', '2031-2-3', '', null, 5),
  fc.string({ maxLength: 12 }),
);
const row = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        sku,
        available_quantity: quantity,
        status,
        estimated_back_in_stock_date: date,
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.anything() },
);
/** Rows that are mostly valid, so the fast path answers often. */
const validRow = fc.record(
  {
    sku: fc.stringMatching(/^[A-Za-z0-9 -]{1,10}$/),
    available_quantity: fc.oneof(
      fc.integer({ min: 0, max: 999_999_999 }),
      fc.constantFrom('0', ' 12 ', 3.7),
    ),
    status: fc.constantFrom('DISCONTINUED', 'temporarily_unavailable', '', null),
    estimated_back_in_stock_date: fc.constantFrom('2031-02-03', ' 2031-02-03 ', '', null),
  },
  { requiredKeys: ['sku', 'available_quantity'] },
);

function expectSame(body: unknown) {
  const fast = parseInventoryAdvice(body);
  const schema = parseInventoryAdviceWithSchema(body);
  expect(fast).toEqual(schema);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(schema));
}

describe('inventory advice validation: hand-checked rows and the schema agree', () => {
  it('on the bench body of 1000 rows', () => {
    const body = JSON.parse(JSON.stringify({ items: benchItems(1000) })) as unknown;
    expect(parseInventoryAdvice(body).ok).toBe(true);
    expectSame(body);
  });

  it('on random rows, valid or not', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 0, maxLength: 6 }), (items) => expectSame({ items })),
      { numRuns: 2000 },
    );
  });

  it('on mostly valid rows, duplicates and limits included', () => {
    fc.assert(
      fc.property(fc.array(validRow, { minLength: 0, maxLength: 8 }), (items) =>
        expectSame({ items }),
      ),
      { numRuns: 2000 },
    );
    expectSame({
      items: Array.from({ length: 1001 }, (_, i) => ({ sku: `S${i}`, available_quantity: 1 })),
    });
    expectSame({
      items: Array.from({ length: 1000 }, (_, i) => ({ sku: `S${i}`, available_quantity: 1 })),
    });
  });

  it('on bodies that are not an object of rows', () => {
    for (const body of [null, [], 'x', 5, {}, { items: null }, { items: {} }, { items: [[]] }]) {
      expectSame(body);
    }
  });
});
