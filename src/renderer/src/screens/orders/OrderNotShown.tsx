import { Link } from '@tanstack/react-router';
import { isApiError } from '../../api/ApiError';
import { LoadFailed, LoadingMessage } from '../../components/LoadStates';

/** An address whose id is not even an order id (400) names no order either. */
export function isOrderNotFound(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.status === 400);
}

/** One order's page before the order is there: loading, not found, or failed with Retry. */
export function OrderNotShown({
  error,
  notFound,
  onRetry,
}: {
  /** Why the order did not load; null while it loads. */
  error: string | null;
  notFound: boolean;
  onRetry: () => void;
}) {
  if (error === null) return <LoadingMessage text="Loading the order…" />;
  if (!notFound)
    return <LoadFailed what="Could not load the order" message={error} onRetry={onRetry} />;
  return (
    <div className="state-message error" role="alert">
      <p>
        There is no such order among the ones you can see. Find it in the{' '}
        <Link to="/orders">orders list</Link>.
      </p>
    </div>
  );
}
