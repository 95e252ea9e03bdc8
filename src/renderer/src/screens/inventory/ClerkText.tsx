import type { ClerkMessage } from './clerkMessages';

/** A message for clerks, with the original wording behind a "Details" toggle when there is one. */
export function ClerkText({ message, className }: { message: ClerkMessage; className?: string }) {
  return (
    <span className={className}>
      {message.text}
      {message.detail ? (
        <details className="message-details">
          <summary>Details</summary>
          <code>{message.detail}</code>
        </details>
      ) : null}
    </span>
  );
}
