import { z } from 'zod';
import type { ConflictStatus } from '../../api/sync';
import { pageNumber } from '../../routing/urlSearch';

/** The Sync screen's URL state; a value that does not fit is dropped rather than an error. */
export const syncSearchSchema = z.object({
  /** Which conflicts the table lists; open when absent. */
  status: z.enum(['open', 'resolved']).optional().catch(undefined),
  /** 1 when absent. */
  page: pageNumber,
});
export type SyncSearch = z.infer<typeof syncSearchSchema>;

export function conflictStatusOf(search: SyncSearch): ConflictStatus {
  return search.status ?? 'open';
}

/** The URL state showing the given conflicts from their first page (open is the absent status). */
export function searchForStatus(status: ConflictStatus): SyncSearch {
  return { status: status === 'open' ? undefined : status, page: undefined };
}
