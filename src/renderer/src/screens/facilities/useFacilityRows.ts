import { useCallback, useEffect, useState } from 'react';
import { describeError } from '../../api/ApiError';
import { useApi } from '../../api/ApiContext';
import { useAnnounce } from '../../status/StatusContext';
import { loadFacilityRows, type FacilityRow } from './loadFacilityRows';

export type FacilityRowsState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; rows: FacilityRow[] };

/** Loads the facilities table's rows; `reload` starts over (used by Retry and Refresh). */
export function useFacilityRows(): { state: FacilityRowsState; reload: () => void } {
  const api = useApi();
  const announce = useAnnounce();
  const [state, setState] = useState<FacilityRowsState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    loadFacilityRows(api, controller.signal).then(
      (rows) => {
        if (controller.signal.aborted) return;
        setState({ status: 'ready', rows });
        announce(`Loaded ${rows.length} ${rows.length === 1 ? 'facility' : 'facilities'}.`);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'error', message: describeError(error) });
      },
    );
    return () => controller.abort();
  }, [api, announce, attempt]);

  const reload = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  return { state, reload };
}
