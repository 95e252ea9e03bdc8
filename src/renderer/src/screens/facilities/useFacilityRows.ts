import { useCallback } from 'react';
import { loadStateOf, useOnQueryData } from '../../api/queries';
import { useFacilityRows as useFacilityRowsQuery } from '../../api/lookupQueries';
import { useScreenAnnounce } from '../../status/StatusContext';
import type { FacilityRow } from '../../api/facilityRows';

export type FacilityRowsState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; rows: FacilityRow[] };

/**
 * The facilities table's rows (cached for the session, so coming back shows them at once);
 * `reload` asks the service again (Retry and Refresh), `refreshing` is true meanwhile.
 */
export function useFacilityRows(): {
  state: FacilityRowsState;
  refreshing: boolean;
  reload: () => void;
} {
  // Describes this screen only: withdrawn when the clerk moves on (issue 19).
  const announce = useScreenAnnounce();
  const query = useFacilityRowsQuery();
  const { refetch } = query;
  useOnQueryData(query, (rows) =>
    announce(`Loaded ${rows.length} ${rows.length === 1 ? 'facility' : 'facilities'}.`),
  );
  const load = loadStateOf(query);
  const state: FacilityRowsState =
    load.status === 'ready'
      ? { status: 'ready', rows: load.data }
      : load.status === 'error'
        ? load
        : { status: 'loading' };
  const reload = useCallback(() => void refetch(), [refetch]);
  return { state, refreshing: query.isFetching, reload };
}
