import type { Ref } from 'react';

/**
 * What an action on a document (Retry) answered, beside it. The caller focuses it so it is read
 * at once; a failure is an alert, a success a polite status.
 */
export function ActionNote({
  note,
  ref,
}: {
  note: { text: string; failed: boolean };
  ref: Ref<HTMLParagraphElement>;
}) {
  return (
    <p
      ref={ref}
      tabIndex={-1}
      className={note.failed ? 'field-error' : 'status-ok'}
      role={note.failed ? 'alert' : 'status'}
    >
      {note.text}
    </p>
  );
}
