import { describeError } from '../../api/ApiError';
import { useRetryDelivery } from './inventoryQueries';

/**
 * Resends a delivery that did not reach the retailer (failed, or left pending by a crash).
 * Every view of deliveries refreshes afterwards (the mutation invalidates them).
 */
export function RetryDeliveryButton({
  deliveryId,
  label,
  onDone,
  className = 'link-button',
}: {
  deliveryId: string;
  /** Names the delivery, e.g. "delivery to Big Box Retail, 20 Nov 2026, 10:00:00". */
  label: string;
  onDone: (message: string) => void;
  className?: string;
}) {
  const retry = useRetryDelivery();
  const busy = retry.isPending;
  const run = () =>
    retry.mutate(deliveryId, {
      onSuccess: (result) =>
        onDone(
          result.success
            ? `Resent the ${label}.`
            : `The ${label} failed again: ${result.error ?? result.message}`,
        ),
      onError: (error) => onDone(`Could not retry the ${label}: ${describeError(error)}`),
    });
  return (
    <button
      type="button"
      className={className}
      aria-label={`Retry ${label}`}
      aria-busy={busy}
      disabled={busy}
      onClick={run}
    >
      {busy ? 'Retrying…' : 'Retry'}
    </button>
  );
}
