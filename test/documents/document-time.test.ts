import { describe, expect, it } from 'vitest';
import { documentDate, documentTime } from '../../src/server/documents/document-time';

describe('times on printed documents', () => {
  it('prints an instant to the minute in the install’s zone, naming the zone', () => {
    expect(documentTime('2026-11-25T19:44:12.026Z')).toBe('25 Nov 2026, 19:44 UTC');
    expect(documentTime('2026-11-25T19:44:12.026Z', 'America/Los_Angeles')).toBe(
      '25 Nov 2026, 11:44 GMT-8',
    );
    expect(documentTime(null)).toBeNull();
    expect(documentTime('not a time')).toBe('not a time');
  });

  it('prints a calendar day as that day, whatever the zone', () => {
    expect(documentDate('2026-01-05')).toBe('5 Jan 2026');
    expect(documentDate(null)).toBeNull();
    expect(documentDate('soon')).toBe('soon');
  });
});
