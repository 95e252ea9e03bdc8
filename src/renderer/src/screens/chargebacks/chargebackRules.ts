import type { Chargeback, DisputeStatus } from '../../../../shared/claims';
import { daysBetween } from '../claims/claimsFormat';

/** The look of a status chip; the chip's text always names the status (never colour alone). */
export type ChipTone = 'won' | 'lost' | 'closed' | 'waiting' | 'action' | 'working' | 'failed';

export interface StatusChip {
  /** The status as the retailer and the interface spell it. */
  label: string;
  tone: ChipTone;
  /** A symbol that repeats the tone for people who cannot tell the colours apart. */
  symbol: string;
  /** What the status means for the clerk, for the chip's title and screen readers. */
  meaning: string;
}

const CHIPS: Record<DisputeStatus, Omit<StatusChip, 'label'>> = {
  Won: { tone: 'won', symbol: '✓', meaning: 'Dispute won; the money comes back' },
  Lost: { tone: 'lost', symbol: '✗', meaning: 'Dispute lost; the chargeback stands' },
  // The first state of every new deduction: nobody has acted on it yet.
  'Not Disputed': {
    tone: 'action',
    symbol: '!',
    meaning: 'Not disputed yet: decide before the deadline',
  },
  Expired: { tone: 'lost', symbol: '⊘', meaning: 'The dispute deadline passed' },
  'Pending Review': { tone: 'waiting', symbol: '•', meaning: 'Waiting for someone to review it' },
  'Ready to Dispute': { tone: 'action', symbol: '!', meaning: 'Ready: send the dispute' },
  'Generating Proposal': { tone: 'working', symbol: '…', meaning: 'The dispute is being written' },
  Submitting: { tone: 'working', symbol: '…', meaning: 'The dispute is being sent' },
  'Submission Failed': {
    tone: 'failed',
    symbol: '!',
    meaning: 'Sending the dispute failed; try again',
  },
};

/** The chip of a dispute status. */
export function statusChipOf(status: DisputeStatus): StatusChip {
  return { label: status, ...CHIPS[status] };
}

/** Days before the deadline from which a chargeback is flagged as due soon. */
const DUE_SOON_DAYS = 7;

export interface DeadlineWarning {
  kind: 'expired' | 'due-soon';
  text: string;
}

/**
 * The warning next to a chargeback's deadline, with `today` the workstation's calendar day:
 * expired (the service says so, or the deadline day is over) or due within DUE_SOON_DAYS days.
 * A settled chargeback (Won, Lost) and one without a deadline get none; Not Disputed is still open.
 */
export function deadlineWarningOf(
  chargeback: Pick<Chargeback, 'dispute_status' | 'dispute_deadline' | 'is_expired' | 'closed'>,
  today: string,
): DeadlineWarning | null {
  const { dispute_status: status, dispute_deadline: deadline } = chargeback;
  if (status === 'Won' || status === 'Lost') return null;
  // The deadline itself is shown next to the warning, so the warning stays short.
  const expired: DeadlineWarning = { kind: 'expired', text: 'Expired' };
  if (status === 'Expired' || chargeback.is_expired) return expired;
  if (!deadline) return null;
  const days = daysBetween(today, deadline);
  if (days < 0) return expired;
  if (days > DUE_SOON_DAYS) return null;
  if (days === 0) return { kind: 'due-soon', text: 'Due today' };
  if (days === 1) return { kind: 'due-soon', text: 'Due tomorrow' };
  return { kind: 'due-soon', text: `Due in ${days} days` };
}

/** The name a packet is saved under when the service names none. */
export function packetFileName(chargebackNumber: string): string {
  const safe = chargebackNumber.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  return `dispute-packet-${safe || 'chargeback'}.zip`;
}
