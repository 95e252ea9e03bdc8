import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { httpDateOf, isoTimeOf } from '../../src/server/core/time-text';

/** What the responses gave before the fast path: always through Date. */
const viaDate = {
  http: (text: string) => {
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? null : date.toUTCString();
  },
  iso: (text: string) => {
    const time = Date.parse(text);
    return Number.isNaN(time) ? text : new Date(time).toISOString();
  },
};

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
/** Time-like text, in range and out of it (month 13, day 31 of February, hour 24, ...). */
const timeText = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
    two(13),
    two(32),
    fc.option(
      fc.tuple(two(25), two(61), two(61), fc.constantFrom('', '.000', '.5', '.123', '.9999')),
    ),
    fc.constantFrom('Z', '', '+02:00', 'z'),
  )
  .map(([year, month, day, time, zone]) =>
    time
      ? `${year}-${month}-${day}T${time[0]}:${time[1]}:${time[2]}${time[3]}${zone}`
      : `${year}-${month}-${day}`,
  );
const anyText = fc.oneof(timeText, fc.string(), fc.constantFrom('', 'not a time', '2026-02-29'));

describe('stored times rewritten for responses', () => {
  it('give exactly what Date gives, for any text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(httpDateOf(text)).toBe(viaDate.http(text));
        expect(isoTimeOf(text)).toBe(viaDate.iso(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('rewrite the usual shapes', () => {
    expect(httpDateOf('2026-01-06T12:00:00.000Z')).toBe('Tue, 06 Jan 2026 12:00:00 GMT');
    expect(httpDateOf('2026-01-06')).toBe('Tue, 06 Jan 2026 00:00:00 GMT');
    expect(httpDateOf('2026-02-30T00:00:00.000Z')).toBe('Mon, 02 Mar 2026 00:00:00 GMT');
    expect(httpDateOf('soon')).toBeNull();
    expect(isoTimeOf('2026-01-06T12:00:00Z')).toBe('2026-01-06T12:00:00.000Z');
    expect(isoTimeOf('2026-01-06T14:00:00+02:00')).toBe('2026-01-06T12:00:00.000Z');
    expect(isoTimeOf('yesterday')).toBe('yesterday');
  });
});
