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
