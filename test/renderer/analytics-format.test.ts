import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatHttpDate,
  timeOfHttpDate,
} from '../../src/renderer/src/screens/analytics/analyticsFormat';

describe('analytics times', () => {
  it('reads the service HTTP-dates', () => {
    expect(timeOfHttpDate('Fri, 13 Nov 2026 15:02:00 GMT')).toBe(Date.UTC(2026, 10, 13, 15, 2, 0));
    expect(timeOfHttpDate(null)).toBeNull();
    expect(timeOfHttpDate('soon')).toBeNull();
  });

  it("shows them in the clerk's locale and time zone, to the minute", () => {
    const value = 'Fri, 13 Nov 2026 15:02:00 GMT';
    expect(formatHttpDate(value, 'en-US', 'UTC')).toBe('Nov 13, 2026, 3:02 PM');
    expect(formatHttpDate(value, 'en-US', 'America/New_York')).toBe('Nov 13, 2026, 10:02 AM');
    expect(formatHttpDate(value, 'de-DE', 'UTC')).toBe('13.11.2026, 15:02');
  });

  it('shows a dash for no time and unreadable text as it came', () => {
    expect(formatHttpDate(null)).toBe('—');
    expect(formatHttpDate('someday')).toBe('someday');
  });

  it('groups counts', () => {
    expect(formatCount(1300, 'en-US')).toBe('1,300');
    expect(formatCount(0, 'en-US')).toBe('0');
  });
});
