import type { ConflictAction, SyncConflict } from '../../../../shared/sync';
import { describeError } from '../../api/ApiError';
import { useResolveConflict } from '../../api/sync';
import { conflictName, resolvedMessage } from './syncFormat';

/** An open conflict's two answers; the service's refusal shows under them. */
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
  return (
    <div className="sync-actions">
      <div className="sync-action-buttons">
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
      </div>
      {resolve.isError ? (
        <p id={errorId} className="field-error" role="alert">
          {describeError(resolve.error)}
        </p>
      ) : null}
    </div>
  );
}
