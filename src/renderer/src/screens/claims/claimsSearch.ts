import { z } from 'zod';
import { isCalendarDate } from '../../../../shared/inventory';

// The router reads `?po=123` as the number 123; a search is text either way.
export const searchText = z.preprocess(
  (value) => (typeof value === 'number' ? String(value) : value),
  z.string().trim().min(1).max(200).optional().catch(undefined),
);

/** A real calendar day written `YYYY-MM-DD`; anything else is dropped. */
export const calendarDay = z
  .string()
  .refine((text) => isCalendarDate(text))
  .optional()
  .catch(undefined);

/** A page number; 1 when absent. */
export const pageParam = z.number().int().min(2).optional().catch(undefined);

/** A date range whose start is after its end matches nothing; the filter says so next to it. */
export function dateRangeProblem(from: string | undefined, to: string | undefined): string | null {
  return from && to && from > to ? 'The start date is after the end date.' : null;
}
