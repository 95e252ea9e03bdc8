import { useState, type FormEvent } from 'react';
import { ORDER_LIMITS } from '../../../../shared/orders';
import type { SyncConflict } from '../../../../shared/sync';
import { describeError } from '../../api/ApiError';
import { useCreateRefusedOrder } from '../../api/sync';
import { conflictName, recreatedMessage } from './syncFormat';

export const ENTER_A_CODE = 'Enter a new picksheet code';

/**
 * "Create with a new picksheet code": a new order refused by the central (its code was taken) is
 * created again with the values it held and the code the clerk types; the service checks it as
 * any new order, and its refusal shows under the field.
 */
export function RecreateOrderForm({
  conflict,
  onResolved,
}: {
  conflict: SyncConflict;
  onResolved: (message: string) => void;
}) {
  const create = useCreateRefusedOrder();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const name = conflictName(conflict);
  const inputId = `sync-recreate-${conflict.id}`;
  const errorId = `${inputId}-error`;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const picksheetCode = code.trim();
    if (picksheetCode === '') {
      setError(ENTER_A_CODE);
      return;
    }
    setError(null);
    try {
      // Awaited rather than a mutate callback: the row leaves the list (and unmounts) on success.
      await create.mutateAsync({ conflictId: conflict.id, picksheetCode });
      onResolved(recreatedMessage(conflict, picksheetCode));
    } catch (failure) {
      setError(describeError(failure));
    }
  };
  return (
    <form className="sync-recreate" noValidate onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor={inputId}>New picksheet code for {name}</label>
        <input
          id={inputId}
          value={code}
          maxLength={ORDER_LIMITS.code}
          autoComplete="off"
          aria-invalid={error !== null || undefined}
          aria-describedby={error !== null ? errorId : undefined}
          onChange={(event) => setCode(event.target.value)}
        />
        {error !== null ? (
          <p id={errorId} className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button" disabled={create.isPending}>
        Create with a new picksheet code
      </button>
    </form>
  );
}
