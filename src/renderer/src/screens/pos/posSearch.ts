import { z } from 'zod';
import type { PosListRequest } from '../../api/claims';
import { optionalUuid } from '../../routing/urlSearch';
import { calendarDay, pageParam } from '../claims/claimsSearch';

/** Rows per page of the POS table. */
export const POS_PAGE_SIZE = 25;

/** The POS reports screen's URL state; a value that does not fit is dropped rather than an error. */
export const posSearchSchema = z.object({
  retailer: optionalUuid,
  /** Periods starting on or after this day. */
  from: calendarDay,
  /** Periods ending on or before this day. */
  to: calendarDay,
  page: pageParam,
});
export type PosSearch = z.infer<typeof posSearchSchema>;

/** The filters of the URL state, without the page (what the chart shows). */
export function posFilterOf(search: PosSearch): Omit<PosListRequest, 'page' | 'page_size'> {
  return { retailer_id: search.retailer, start_date: search.from, end_date: search.to };
}

/** The service request for the table's page. */
export function posRequestOf(search: PosSearch): PosListRequest {
  return { ...posFilterOf(search), page: search.page ?? 1, page_size: POS_PAGE_SIZE };
}

export function isPosFiltered(search: PosSearch): boolean {
  return !!(search.retailer ?? search.from ?? search.to);
}
