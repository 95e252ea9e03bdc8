import { useRef } from 'react';
import { FacilitiesTable } from './FacilitiesTable';
import { useFacilityRows, type FacilityRowsState } from './useFacilityRows';

const EMPTY_TEXT =
  'No facilities yet. Ask an administrator to give your account access to a facility, or import a seed bundle.';

function FacilitiesContent({ state, retry }: { state: FacilityRowsState; retry: () => void }) {
  switch (state.status) {
    case 'loading':
      return (
        <p className="state-message" role="status">
          Loading facilities…
        </p>
      );
    case 'error':
      return (
        <div className="state-message error" role="alert">
          <p>Could not load facilities: {state.message}</p>
          <button type="button" className="button" onClick={retry}>
            Retry
          </button>
        </div>
      );
    case 'ready':
      return state.rows.length === 0 ? (
        <p className="state-message">{EMPTY_TEXT}</p>
      ) : (
        <FacilitiesTable rows={state.rows} />
      );
  }
}

export function FacilitiesScreen() {
  const { state, refreshing, reload } = useFacilityRows();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const loading = state.status === 'loading' || refreshing;

  const retry = () => {
    reload();
    // The Retry button goes away with the error; keep focus on the screen.
    headingRef.current?.focus();
  };

  return (
    <section aria-labelledby="facilities-heading">
      <div className="screen-header">
        <h1 id="facilities-heading" ref={headingRef} tabIndex={-1}>
          Facilities
        </h1>
        <button
          type="button"
          className="button"
          aria-disabled={loading || undefined}
          onClick={() => {
            if (!loading) reload();
          }}
        >
          Refresh
        </button>
      </div>
      <FacilitiesContent state={state} retry={retry} />
    </section>
  );
}
