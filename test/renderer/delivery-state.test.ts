import { describe, expect, it } from 'vitest';
import { formatTime, formatUpcoming } from '../../src/renderer/src/format/time';
import { formatTime as labelsFormatTime } from '../../src/renderer/src/screens/inventory/labels';
import {
  canRetry,
  inStableOrder,
  scheduleNote,
} from '../../src/renderer/src/screens/inventory/deliveryState';

const NOW = new Date(2026, 10, 22, 14, 0, 0);
const LATER_TODAY = new Date(2026, 10, 22, 14, 5, 9).toISOString();
const TOMORROW = new Date(2026, 10, 23, 8, 0, 1).toISOString();

describe('times', () => {
  it('show seconds', () => {
    expect(formatTime(new Date(2026, 10, 20, 10, 0, 7).toISOString(), 'en-GB')).toBe(
      '20 Nov 2026, 10:00:07',
    );
    expect(formatTime('not a date')).toBe('not a date');
  });

  it('show seconds in the preview and the send question too', () => {
    const at = new Date(2026, 10, 20, 10, 0, 7).toISOString();
    expect(labelsFormatTime(at, 'en-GB')).toBe('20 Nov 2026, 10:00:07');
    // In the workstation's own locale as well, whatever it is.
    expect(labelsFormatTime(at)).toMatch(/00:07/);
  });

  it('show only the time for later today, the date too otherwise', () => {
    expect(formatUpcoming(LATER_TODAY, NOW, 'en-GB')).toBe('14:05:09');
    expect(formatUpcoming(TOMORROW, NOW, 'en-GB')).toBe('23 Nov 2026, 08:00:01');
  });
});

describe('the outbox state of a delivery', () => {
  it('says when the next try is', () => {
    expect(
      scheduleNote({ status: 'FAILURE', attempts: 3, next_attempt_at: LATER_TODAY }, NOW),
    ).toMatch(
      /^attempt 3 failed, next try at 2:05:09\sPM$|^attempt 3 failed, next try at 14:05:09$/,
    );
    expect(
      scheduleNote({ status: 'PENDING', attempts: 0, next_attempt_at: LATER_TODAY }, NOW),
    ).toMatch(/^first try at /);
  });

  it('says when it gave up', () => {
    expect(
      scheduleNote({ status: 'FAILURE', attempts: 6, next_attempt_at: null, given_up: true }, NOW),
    ).toBe('gave up after 6 attempts');
    expect(scheduleNote({ status: 'FAILURE', attempts: 1, given_up: true }, NOW)).toBe(
      'gave up after 1 attempt',
    );
  });

  it('says nothing for a delivered one, or when the service reports no schedule', () => {
    expect(
      scheduleNote({ status: 'SUCCESS', attempts: 2, next_attempt_at: LATER_TODAY }, NOW),
    ).toBe('');
    expect(scheduleNote({ status: 'FAILURE', attempts: 1 }, NOW)).toBe('');
  });

  it('offers Retry only for undelivered deliveries with a document', () => {
    expect(canRetry({ status: 'FAILURE', hasDocument: true })).toBe(true);
    expect(canRetry({ status: 'PENDING', hasDocument: true })).toBe(true);
    expect(canRetry({ status: 'SUCCESS', hasDocument: true })).toBe(false);
    expect(canRetry({ status: 'FAILURE', hasDocument: false })).toBe(false);
  });
});

describe('delivery order', () => {
  it('is by retailer name, then delivery id, with no retailer last, whatever the input order', () => {
    const deliveries = [
      { retailer_name: 'peak sports', delivery_id: 'b' },
      { retailer_name: null, delivery_id: 'a' },
      { retailer_name: 'Big Box Retail', delivery_id: 'z' },
      { retailer_name: 'Peak Sports', delivery_id: 'a' },
      { retailer_name: 'Big Box Retail', delivery_id: 'c' },
    ];
    const expected = [
      { retailer_name: 'Big Box Retail', delivery_id: 'c' },
      { retailer_name: 'Big Box Retail', delivery_id: 'z' },
      { retailer_name: 'Peak Sports', delivery_id: 'a' },
      { retailer_name: 'peak sports', delivery_id: 'b' },
      { retailer_name: null, delivery_id: 'a' },
    ];
    expect(inStableOrder(deliveries)).toEqual(expected);
    expect(inStableOrder([...deliveries].reverse())).toEqual(expected);
  });
});
