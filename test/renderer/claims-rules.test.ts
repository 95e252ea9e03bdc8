import { describe, expect, it } from 'vitest';
import { DISPUTE_STATUSES, type Chargeback } from '../../src/shared/claims';
import {
  deadlineWarningOf,
  packetFileName,
  statusChipOf,
} from '../../src/renderer/src/screens/chargebacks/chargebackRules';
import { daysBetween, localDay } from '../../src/renderer/src/screens/claims/claimsFormat';

type DeadlineFields = Pick<
  Chargeback,
  'dispute_status' | 'dispute_deadline' | 'is_expired' | 'closed'
>;
const open = (deadline: string | null, patch: Partial<DeadlineFields> = {}): DeadlineFields => ({
  dispute_status: 'Pending Review',
  dispute_deadline: deadline,
  is_expired: false,
  closed: false,
  ...patch,
});
const TODAY = '2026-11-24';

describe('status chips', () => {
  it('name every status in its own words, with a tone, a symbol and a meaning', () => {
    for (const status of DISPUTE_STATUSES) {
      const chip = statusChipOf(status);
      expect(chip.label).toBe(status);
      expect(chip.symbol).not.toBe('');
      expect(chip.meaning).not.toBe('');
    }
  });

  it('group the statuses by what the clerk has to do', () => {
    const tones = Object.fromEntries(DISPUTE_STATUSES.map((s) => [s, statusChipOf(s).tone]));
    expect(tones).toEqual({
      Won: 'won',
      Lost: 'lost',
      'Pending Review': 'waiting',
      'Not Disputed': 'action',
      'Ready to Dispute': 'action',
      'Generating Proposal': 'working',
      Submitting: 'working',
      'Submission Failed': 'failed',
      Expired: 'lost',
    });
  });

  it('never tell two tones apart by colour alone: symbols differ between tones', () => {
    expect(statusChipOf('Won').symbol).toBe('✓');
    expect(statusChipOf('Lost').symbol).toBe('✗');
    expect(statusChipOf('Expired').symbol).toBe('⊘');
    expect(statusChipOf('Submission Failed').symbol).toBe('!');
  });
});

describe('deadline warnings', () => {
  it('flag a deadline within 7 days, counting calendar days', () => {
    expect(deadlineWarningOf(open('2026-11-24'), TODAY)).toEqual({
      kind: 'due-soon',
      text: 'Due today',
    });
    expect(deadlineWarningOf(open('2026-11-25'), TODAY)).toEqual({
      kind: 'due-soon',
      text: 'Due tomorrow',
    });
    expect(deadlineWarningOf(open('2026-11-27'), TODAY)).toEqual({
      kind: 'due-soon',
      text: 'Due in 3 days',
    });
    expect(deadlineWarningOf(open('2026-12-01'), TODAY)).toEqual({
      kind: 'due-soon',
      text: 'Due in 7 days',
    });
  });

  it('say nothing 8 days or more ahead, or without a deadline', () => {
    expect(deadlineWarningOf(open('2026-12-02'), TODAY)).toBeNull();
    expect(deadlineWarningOf(open(null), TODAY)).toBeNull();
  });

  it('flag an expired chargeback: the service says so, the status is Expired, or the day is over', () => {
    const expired = { kind: 'expired', text: 'Expired' };
    expect(
      deadlineWarningOf(open('2026-11-19', { is_expired: true, closed: true }), TODAY),
    ).toEqual(expired);
    expect(
      deadlineWarningOf(open('2026-11-19', { dispute_status: 'Expired', closed: true }), TODAY),
    ).toEqual(expired);
    // The workstation's day moved on before the list was loaded again.
    expect(deadlineWarningOf(open('2026-11-19'), TODAY)).toEqual(expired);
    expect(deadlineWarningOf(open(null, { dispute_status: 'Expired' }), TODAY)).toEqual({
      kind: 'expired',
      text: 'Expired',
    });
  });

  it('warn about a Not Disputed chargeback: it is still open', () => {
    const notDisputed = { dispute_status: 'Not Disputed' as const };
    expect(deadlineWarningOf(open('2026-11-24', notDisputed), TODAY)).toEqual({
      kind: 'due-soon',
      text: 'Due today',
    });
    expect(deadlineWarningOf(open('2026-11-01', notDisputed), TODAY)).toEqual({
      kind: 'expired',
      text: 'Expired',
    });
  });

  it('never warn about a settled chargeback (Won, Lost)', () => {
    for (const status of ['Won', 'Lost'] as const) {
      expect(
        deadlineWarningOf(open('2026-11-25', { dispute_status: status, closed: true }), TODAY),
      ).toBeNull();
      expect(
        deadlineWarningOf(open('2026-11-01', { dispute_status: status, closed: true }), TODAY),
      ).toBeNull();
    }
  });
});

describe('calendar days', () => {
  it('count whole days across month ends and clock changes', () => {
    expect(daysBetween('2026-11-24', '2026-12-01')).toBe(7);
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
    expect(daysBetween('2026-11-24', '2026-11-19')).toBe(-5);
  });

  it('read the workstation day in its own time zone', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('dispute packet file name', () => {
  it('is made from the chargeback number, safe as a file name', () => {
    expect(packetFileName('BBR-77120')).toBe('dispute-packet-BBR-77120.zip');
    expect(packetFileName('../CB 1/2')).toBe('dispute-packet-CB_1_2.zip');
    expect(packetFileName('')).toBe('dispute-packet-chargeback.zip');
  });
});
