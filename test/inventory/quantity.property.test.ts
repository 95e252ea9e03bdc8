/**
 * Property tests of `available_quantity` coercion (interface: "Inventory item"): whole numbers,
 * whole-number strings and `n.0` are n; a fractional number is rounded down; fractional strings,
 * non-numeric strings, negatives, booleans, null, arrays and objects are rejected at the row.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseInventoryAdvice } from '../../src/shared/inventory';

const MAX = 999_999_999;

/** A body whose row `index` carries `value` and whose other rows are valid. */
function bodyWith(value: unknown, index: number, rows: number, omit = false) {
  return {
    items: Array.from({ length: rows }, (_, i) => {
      if (i !== index) return { sku: `OK-${i}`, available_quantity: i + 1 };
      return omit ? { sku: `X-${i}` } : { sku: `X-${i}`, available_quantity: value };
    }),
  };
}

function acceptedQuantity(value: unknown): number {
  const parsed = parseInventoryAdvice({ items: [{ sku: 'A', available_quantity: value }] });
  if (!parsed.ok) throw new Error(`rejected ${JSON.stringify(value)}: ${JSON.stringify(parsed)}`);
  expect(parsed.value.items).toHaveLength(1);
  return parsed.value.items[0]!.available_quantity;
}

/** Rejected, with exactly one problem, located at the row's available_quantity. */
function expectRejectedAt(value: unknown, index: number, rows: number) {
  const parsed = parseInventoryAdvice(bodyWith(value, index, rows));
  expect(parsed.ok).toBe(false);
  if (parsed.ok) return;
  expect(parsed.problems).toHaveLength(1);
  const [problem] = parsed.problems;
  expect(problem!.loc).toEqual(['items', index, 'available_quantity']);
  expect(typeof problem!.msg).toBe('string');
  expect(problem!.msg.length).toBeGreaterThan(0);
  expect(typeof problem!.type).toBe('string');
}

/** A row position inside a body of 1..6 rows. */
const position = fc
  .integer({ min: 1, max: 6 })
  .chain((rows) => fc.record({ rows: fc.constant(rows), index: fc.nat({ max: rows - 1 }) }));

const wholeNumber = fc.integer({ min: 0, max: MAX });

describe('available_quantity coercion', () => {
  it('a whole number n is n, as a number, as String(n), as n + 0.0 and as JSON `n.0`', () => {
    fc.assert(
      fc.property(wholeNumber, (n) => {
        expect(acceptedQuantity(n)).toBe(n);
        expect(acceptedQuantity(String(n))).toBe(n);
        expect(acceptedQuantity(n + 0.0)).toBe(n);
        expect(acceptedQuantity(JSON.parse(`${n}.0`))).toBe(n);
      }),
      { numRuns: 300 },
    );
  });

  it('returns a number (never the string) for a whole-number string', () => {
    fc.assert(
      fc.property(wholeNumber, (n) => {
        expect(typeof acceptedQuantity(String(n))).toBe('number');
      }),
    );
  });

  it('a non-negative non-integer finite number x is floor(x)', () => {
    const fractional = fc
      .double({ min: 0, max: MAX, noNaN: true, noDefaultInfinity: true })
      .filter((x) => !Number.isInteger(x));
    fc.assert(
      fc.property(fractional, (x) => {
        expect(acceptedQuantity(x)).toBe(Math.floor(x));
      }),
      { numRuns: 300 },
    );
    expect(acceptedQuantity(5.5)).toBe(5);
    expect(acceptedQuantity(0.999)).toBe(0);
    expect(acceptedQuantity(JSON.parse('120.75'))).toBe(120);
  });

  it('rejects strings holding a fractional number ("5.5")', () => {
    const fractionalString = fc
      .tuple(fc.nat({ max: MAX }), fc.stringMatching(/^\d{0,4}[1-9]\d{0,4}$/))
      .map(([whole, fraction]) => `${whole}.${fraction}`);
    fc.assert(
      fc.property(fractionalString, position, (text, { rows, index }) => {
        expectRejectedAt(text, index, rows);
      }),
      { numRuns: 200 },
    );
    expectRejectedAt('5.5', 0, 1);
  });

  it('rejects non-numeric strings', () => {
    const nonNumeric = fc.oneof(
      fc.string().filter((s) => /[^\d\s.+-]/.test(s)),
      fc.constantFrom('', ' ', 'abc', '12abc', 'abc12', '0x10', '1e3', 'NaN', 'Infinity', '١٢'),
    );
    fc.assert(
      fc.property(nonNumeric, position, (text, { rows, index }) => {
        expectRejectedAt(text, index, rows);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects negative numbers and negative whole-number strings', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX, max: -1 }), position, (n, { rows, index }) => {
        expectRejectedAt(n, index, rows);
        expectRejectedAt(String(n), index, rows);
      }),
      { numRuns: 200 },
    );
    const negativeFraction = fc
      .double({ min: -MAX, max: -Number.MIN_VALUE, noNaN: true, noDefaultInfinity: true })
      .filter((x) => x < 0);
    fc.assert(
      fc.property(negativeFraction, position, (x, { rows, index }) => {
        expectRejectedAt(x, index, rows);
      }),
    );
  });

  it('rejects booleans, null, arrays and objects', () => {
    const wrongType = fc.oneof(
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.oneof(fc.nat(), fc.string())),
      fc.object(),
    );
    fc.assert(
      fc.property(wrongType, position, (value, { rows, index }) => {
        expectRejectedAt(value, index, rows);
      }),
      { numRuns: 200 },
    );
    expectRejectedAt([5], 0, 1);
    expectRejectedAt(['5'], 0, 1);
  });

  it('a missing quantity is `Field required` / `missing` at its row', () => {
    fc.assert(
      fc.property(position, ({ rows, index }) => {
        const parsed = parseInventoryAdvice(bodyWith(undefined, index, rows, true));
        expect(parsed).toEqual({
          ok: false,
          problems: [
            { loc: ['items', index, 'available_quantity'], msg: 'Field required', type: 'missing' },
          ],
        });
      }),
    );
  });

  it('reports every bad row, each at its own index', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<unknown>(-1, '5.5', 'abc', true, null, [1]), {
          minLength: 1,
          maxLength: 5,
        }),
        (bad) => {
          const items = bad.flatMap((value, i) => [
            { sku: `GOOD-${i}`, available_quantity: 1 },
            { sku: `BAD-${i}`, available_quantity: value },
          ]);
          const parsed = parseInventoryAdvice({ items });
          expect(parsed.ok).toBe(false);
          if (parsed.ok) return;
          expect(parsed.problems.map((p) => p.loc)).toEqual(
            bad.map((_, i) => ['items', 2 * i + 1, 'available_quantity']),
          );
        },
      ),
    );
  });
});
