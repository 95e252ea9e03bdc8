import { z } from 'zod';
import { DISPUTE_STATUSES, type DisputeStatus } from '../../../../shared/claims';
import type { ChargebackListRequest } from '../../api/claims';
import { optionalUuid } from '../../routing/urlSearch';
import { calendarDay, pageParam, searchText } from '../claims/claimsSearch';

/** Rows per page of the chargeback list. */
export const CHARGEBACK_PAGE_SIZE = 25;

/** The statuses the URL names, each once, in the interface's order; unknown ones are dropped. */
const statusList = z.preprocess(
  (value) => {
    const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    const wanted = new Set(list.filter((item): item is string => typeof item === 'string'));
    const statuses = DISPUTE_STATUSES.filter((status) => wanted.has(status));
    return statuses.length > 0 ? statuses : undefined;
  },
  z.array(z.enum(DISPUTE_STATUSES)).optional(),
);

/** The Chargebacks screen's URL state; a value that does not fit is dropped rather than an error. */
export const chargebacksSearchSchema = z.object({
  retailer: optionalUuid,
  /** Exact PO number. */
  po: searchText,
  /** Exact chargeback number. */
  number: searchText,
  status: statusList.catch(undefined),
  /** yes: settled (closed) only; no: still open only. */
  settled: z.enum(['yes', 'no']).optional().catch(undefined),
  /** Chargeback dates from and to, inclusive. */
  from: calendarDay,
  to: calendarDay,
  page: pageParam,
});
export type ChargebacksSearch = z.infer<typeof chargebacksSearchSchema>;

/** The service request the URL state asks for. */
export function chargebackRequestOf(search: ChargebacksSearch): ChargebackListRequest {
  return {
    retailer_id: search.retailer,
    po_number: search.po,
    chargeback_id: search.number,
    dispute_status: search.status?.join(','),
    settled: search.settled === undefined ? undefined : search.settled === 'yes' ? 'true' : 'false',
    start_date: search.from,
    end_date: search.to,
    page: search.page ?? 1,
    page_size: CHARGEBACK_PAGE_SIZE,
  };
}

/** Whether any filter narrows the list (the empty state then says how to widen it). */
export function isChargebackFiltered(search: ChargebacksSearch): boolean {
  return !!(
    search.retailer ??
    search.po ??
    search.number ??
    search.status ??
    search.settled ??
    search.from ??
    search.to
  );
}

/** The URL state with `status` switched on or off; back to page 1. */
export function toggleStatus(search: ChargebacksSearch, status: DisputeStatus): ChargebacksSearch {
  const current = new Set(search.status ?? []);
  if (current.has(status)) current.delete(status);
  else current.add(status);
  const next = DISPUTE_STATUSES.filter((item) => current.has(item));
  return { ...search, status: next.length > 0 ? next : undefined, page: undefined };
}
