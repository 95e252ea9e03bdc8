/**
 * SSCC-18 (src/server/fulfilment/sscc.ts): the GS1 mod-10 check digit and the layout
 * (extension digit, company prefix, serial reference, check digit), as properties.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildSscc,
  gs1CheckDigit,
  isValidSscc,
  serialCapacity,
} from '../../src/server/fulfilment/sscc';

const RUNS = { numRuns: 300 };
const prefixArb = fc.stringMatching(/^\d{7,10}$/);
const sscc = fc
  .record({
    extension: fc.integer({ min: 0, max: 9 }),
    prefix: prefixArb,
    fraction: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ extension, prefix, fraction }) => ({
    extension,
    prefix,
    serial: Math.floor(fraction * serialCapacity(prefix)),
  }));

describe('GS1 mod-10 check digit', () => {
  it("matches GS1's published example SSCC 1 0614141 123456789 7", () => {
    expect(gs1CheckDigit('10614141123456789')).toBe(7);
    expect(buildSscc(1, '0614141', 123456789)).toBe('106141411234567897');
  });

  it('makes the weighted sum (3, 1, 3, … from the right, check digit weight 1) a multiple of 10', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,30}$/), (digits) => {
        const check = gs1CheckDigit(digits);
        const all = `${digits}${check}`;
        const sum = [...all]
          .reverse()
          .reduce((total, d, i) => total + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
        expect(check).toBeGreaterThanOrEqual(0);
        expect(check).toBeLessThanOrEqual(9);
        expect(sum % 10).toBe(0);
      }),
      RUNS,
    );
  });

  it('catches every single-digit error', () => {
    fc.assert(
      fc.property(
        sscc,
        fc.integer({ min: 0, max: 17 }),
        fc.integer({ min: 1, max: 9 }),
        (s, at, delta) => {
          const code = buildSscc(s.extension, s.prefix, s.serial);
          const changed = (Number(code[at]) + delta) % 10;
          const wrong = `${code.slice(0, at)}${changed}${code.slice(at + 1)}`;
          expect(isValidSscc(wrong)).toBe(false);
        },
      ),
      RUNS,
    );
  });
});

describe('SSCC layout', () => {
  it('is 18 digits: extension, prefix, serial padded to fill 16, valid check digit', () => {
    fc.assert(
      fc.property(sscc, ({ extension, prefix, serial }) => {
        const code = buildSscc(extension, prefix, serial);
        expect(code).toMatch(/^\d{18}$/);
        expect(code[0]).toBe(String(extension));
        expect(code.slice(1, 1 + prefix.length)).toBe(prefix);
        expect(Number(code.slice(1 + prefix.length, 17))).toBe(serial);
        expect(isValidSscc(code)).toBe(true);
      }),
      RUNS,
    );
  });

  it('different serials of one prefix give different SSCCs', () => {
    fc.assert(
      fc.property(prefixArb, fc.nat(999_999), fc.nat(999_999), (prefix, a, b) => {
        fc.pre(a !== b);
        expect(buildSscc(0, prefix, a)).not.toBe(buildSscc(0, prefix, b));
      }),
      RUNS,
    );
  });

  it('refuses serials that do not fit the prefix, and bad prefixes', () => {
    expect(() => buildSscc(0, '0614141', 1_000_000_000)).toThrow();
    expect(() => buildSscc(0, '0614141123', 1_000_000)).toThrow();
    expect(() => buildSscc(0, '061414', 1)).toThrow();
    expect(buildSscc(0, '0614141123', 999_999)).toMatch(/^\d{18}$/);
  });
});
