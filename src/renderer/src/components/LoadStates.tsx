import type { ReactNode } from 'react';
import type { LoadState } from '../api/queries';

/** While a query loads: a status line for screen readers. */
export function LoadingMessage({ text }: { text: string }) {
  return (
    <p className="state-message" role="status">
      {text}
    </p>
  );
}

/** A query that failed: what failed, why, and a Retry button. */
export function LoadFailed({
  what,
  message,
  onRetry,
}: {
  /** e.g. `Could not load orders`. */
  what: string;
  message: string;
  onRetry: () => void;
}) {
  return (
    <div className="state-message error" role="alert">
      <p>
        {what}: {message}
      </p>
      <button type="button" className="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

/**
 * A query's loading, error and empty states, then its data. `empty` says what to show when the
 * data holds nothing to list (null when it does).
 */
export function Loaded<T>({
  state,
  onRetry,
  loading,
  failed,
  idle,
  empty,
  children,
}: {
  state: LoadState<T>;
  onRetry: () => void;
  /** e.g. `Loading orders…`. */
  loading: string;
  /** e.g. `Could not load orders`. */
  failed: string;
  /** Shown (as an empty state) while the query waits for a choice; loading when absent. */
  idle?: ReactNode;
  empty?: (data: T) => ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (state.status === 'idle' && idle !== undefined) {
    return <div className="state-message empty">{idle}</div>;
  }
  if (state.status === 'loading' || state.status === 'idle')
    return <LoadingMessage text={loading} />;
  if (state.status === 'error') {
    return <LoadFailed what={failed} message={state.message} onRetry={onRetry} />;
  }
  const nothing = empty?.(state.data);
  if (nothing !== undefined && nothing !== null && nothing !== false) {
    return <div className="state-message empty">{nothing}</div>;
  }
  return <>{children(state.data)}</>;
}

/**
 * The empty state of a paged list: `message` when its first page holds nothing. A later page
 * that holds nothing keeps its table and pager (which says so), so it has none.
 */
export function emptyFirstPage(rows: number, page: number, message: ReactNode): ReactNode {
  return rows > 0 || page > 1 ? null : message;
}
