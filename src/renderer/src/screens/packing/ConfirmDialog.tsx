import { useEffect, useId, useRef, type ReactNode } from 'react';
import { keepTabInside } from '../../components/keepTabInside';

export interface ConfirmRequest {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
}

/**
 * Asks before a step that cannot be undone from this screen (cancel, unpack, ship short). Focus
 * starts on "Go back" (the safe choice); Escape goes back too.
 */
export function ConfirmDialog({
  request,
  onClose,
}: {
  request: ConfirmRequest;
  onClose: () => void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const backRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    backRef.current?.focus();
  }, []);

  return (
    <dialog
      ref={dialogRef}
      onKeyDown={keepTabInside}
      className="confirm-dialog"
      aria-labelledby={headingId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={headingId}>{request.title}</h2>
      <div>{request.body}</div>
      <div className="dialog-actions">
        <button ref={backRef} type="button" className="button" onClick={onClose}>
          Go back
        </button>
        <button
          type="button"
          className="button primary"
          onClick={() => {
            onClose();
            request.onConfirm();
          }}
        >
          {request.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
