import { z } from 'zod';
import { isCalendarDay } from '../../../shared/transactions';

// URL-state pieces shared by the screens' `validateSearch` schemas: a value that does not fit is
// dropped (undefined) rather than an error, so a hand-edited address still opens the screen.

/** Typed text; the router reads `?q=123` as the number 123, and a search is text either way. */
export const urlText = (max = 100, min = 1) =>
  z.preprocess(
    (value) => (typeof value === 'number' ? String(value) : value),
    z.string().trim().min(min).max(max).optional().catch(undefined),
  );

export const optionalUuid = z.uuid().optional().catch(undefined);

/** A page number; 1 when absent. */
export const pageNumber = z.number().int().min(2).optional().catch(undefined);

export const sortDirection = z.enum(['asc', 'desc']).optional().catch(undefined);

/** A real calendar day written `YYYY-MM-DD`. */
export const calendarDay = z.string().refine(isCalendarDay).optional().catch(undefined);

export type SortDirection = 'asc' | 'desc';

/** The sort the URL state names, or the default where it names none. */
export function sortOrDefault<F extends string>(
  search: { sort?: F; dir?: SortDirection },
  defaultSort: { field: F; direction: SortDirection },
): { field: F; direction: SortDirection } {
  return {
    field: search.sort ?? defaultSort.field,
    direction: search.dir ?? defaultSort.direction,
  };
}

/**
 * The sort after a click on a column header: the same column flips its direction, another column
 * starts with the direction that suits it (dates newest first, text A to Z). The default sort is
 * left out of the URL (undefined).
 */
export function sortAfterClick<F extends string>(
  current: { field: F; direction: SortDirection },
  field: F,
  defaultSort: { field: F; direction: SortDirection },
): { sort: F | undefined; dir: SortDirection | undefined } {
  const direction =
    current.field === field
      ? current.direction === 'asc'
        ? 'desc'
        : 'asc'
      : field === 'created_at' || field === 'updated_at'
        ? 'desc'
        : 'asc';
  const isDefault = field === defaultSort.field && direction === defaultSort.direction;
  return { sort: isDefault ? undefined : field, dir: isDefault ? undefined : direction };
}
