import type { ConflictAction, SyncConflict } from '../../../../shared/sync';
import { describeError } from '../../api/ApiError';
import { useResolveConflict } from '../../api/sync';
import { RecreateOrderForm } from './RecreateOrderForm';
import { conflictName, resolvedMessage } from './syncFormat';

/**
 * An open conflict's answers, as the service offers them (no Apply mine on a Shipped or Cancelled
 * order, nor without an admin grant; a refused new order is created again instead); the
 * service's refusal shows under them.
 */
export function ConflictActions({
  conflict,
  onResolved,
}: {
  conflict: SyncConflict;
  onResolved: (message: string) => void;
}) {
  const resolve = useResolveConflict();
  const name = conflictName(conflict);
  const errorId = `sync-resolve-error-${conflict.id}`;
  const choose = async (action: ConflictAction) => {
    try {
      // Awaited rather than a mutate callback: the row leaves the list (and unmounts) on success.
      await resolve.mutateAsync({ conflictId: conflict.id, action });
      onResolved(resolvedMessage(conflict, action));
    } catch {
      // Shown below from the mutation's error.
    }
  };
  const offers = conflict.offers;
  return (
    <div className="sync-actions">
      <div className="sync-action-buttons">
        {offers.includes('keep_central') ? (
          <button
            type="button"
            className="button"
            aria-label={`Keep central's for ${name}`}
            aria-describedby={resolve.isError ? errorId : undefined}
            disabled={resolve.isPending}
            onClick={() => void choose('keep_central')}
          >
            Keep central&apos;s
          </button>
        ) : null}
        {offers.includes('apply_mine') ? (
          <button
            type="button"
            className="button"
            aria-label={`Apply mine for ${name}`}
            aria-describedby={resolve.isError ? errorId : undefined}
            disabled={resolve.isPending}
            onClick={() => void choose('apply_mine')}
          >
            Apply mine
          </button>
        ) : null}
      </div>
      {offers.includes('create_with_new_picksheet') ? (
        <RecreateOrderForm conflict={conflict} onResolved={onResolved} />
      ) : null}
      {resolve.isError ? (
        <p id={errorId} className="field-error" role="alert">
          {describeError(resolve.error)}
        </p>
      ) : null}
    </div>
  );
}
