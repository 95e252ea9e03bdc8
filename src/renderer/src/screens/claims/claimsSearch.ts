import { z } from 'zod';
import { isCalendarDate } from '../../../../shared/inventory';
import { pageNumber, urlText } from '../../routing/urlSearch';

/** Typed text in the URL (a PO or chargeback number). */
export const searchText = urlText(200);

/** A real calendar day written `YYYY-MM-DD`; anything else is dropped. */
export const calendarDay = z
  .string()
  .refine((text) => isCalendarDate(text))
  .optional()
  .catch(undefined);

/** A page number; 1 when absent. */
export const pageParam = pageNumber;

/** A date range whose start is after its end matches nothing; the filter says so next to it. */
export function dateRangeProblem(from: string | undefined, to: string | undefined): string | null {
  return from && to && from > to ? 'The start date is after the end date.' : null;
}
