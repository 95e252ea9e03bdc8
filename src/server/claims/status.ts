import { SETTLED_STATUSES, type DisputeStatus } from '../../shared/claims';

const settled = new Set<string>(SETTLED_STATUSES);

/**
 * `is_expired`: the status is Expired, or the chargeback is still open (not Won or Lost; Not Disputed
 * is open too) and its dispute deadline is before today (the deadline day itself is still open).
 * `closed` (what the `settled` filter reads): a settled status, or expired. The SQL twin of
 * `closed` is in db/claims.ts (settledExpression).
 */
export function chargebackState(
  status: DisputeStatus,
  deadline: string | null,
  today: string,
): { is_expired: boolean; closed: boolean } {
  const passed = deadline !== null && deadline < today;
  const isExpired = status === 'Expired' || (!settled.has(status) && passed);
  return { is_expired: isExpired, closed: settled.has(status) || isExpired };
}
