import { useEffect, useId, useRef, useState } from 'react';
import { keepTabInside } from '../../components/keepTabInside';
import { loadStateOf } from '../../api/queries';
import { useDeliveryDocument } from './inventoryQueries';
import { documentFileName, readableDocument } from './documentFormat';
import { downloadText } from './download';
import type { DocumentRequest } from './SendResults';

/**
 * A modal showing the document stored for (and sent to) one delivery: one X12 segment per line or
 * indented JSON on screen, and the exact bytes sent on download. Focus goes to Close on open and
 * back to the button that opened it on close; Escape closes it.
 */
export function DocumentDialog({
  request,
  onClose,
}: {
  request: DocumentRequest;
  onClose: () => void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  // Read during the first render, while the opening button still has focus.
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );

  const state = loadStateOf(useDeliveryDocument(request.deliveryId));

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    closeRef.current?.focus();
    return () => opener?.focus();
  }, [opener]);

  return (
    <dialog
      ref={dialogRef}
      onKeyDown={keepTabInside}
      className="document-dialog"
      aria-labelledby={headingId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="dialog-header">
        <h2 id={headingId}>{request.title}</h2>
        <button ref={closeRef} type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      {state.status === 'loading' || state.status === 'idle' ? (
        <p role="status">Loading document…</p>
      ) : state.status === 'error' ? (
        <p className="form-error" role="alert">
          Could not load the document: {state.message}
        </p>
      ) : (
        <>
          <div className="document-toolbar">
            <p className="hint">
              {state.data.contentType.split(';')[0]}: shown one segment or field per line; the
              download is the exact file sent.
            </p>
            <button
              type="button"
              className="button"
              onClick={() =>
                downloadText(
                  documentFileName(state.data.text, state.data.contentType),
                  state.data.text,
                  state.data.contentType.split(';')[0] ?? 'text/plain',
                )
              }
            >
              Download document
            </button>
          </div>
          <pre className="document-text" role="region" tabIndex={0} aria-label="Document text">
            {readableDocument(state.data.text, state.data.contentType)}
          </pre>
        </>
      )}
    </dialog>
  );
}
