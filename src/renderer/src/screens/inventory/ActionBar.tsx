import { useId } from 'react';
import { plural } from './labels';

interface ActionBarProps {
  /** Why Preview and Send cannot run yet, or null when they can. */
  blocker: string | null;
  busy: boolean;
  sending: boolean;
  previewing: boolean;
  /** How many retailers a send reaches, when known. */
  retailerCount: number | null;
  onPreview: () => void;
  onSend: () => void;
}

/** Preview and Send. They stay focusable when they cannot run, and say why next to them. */
export function ActionBar(props: ActionBarProps) {
  const { blocker, busy, sending, previewing, retailerCount } = props;
  const hintId = useId();
  const unavailable = blocker !== null || busy;
  const sendLabel =
    retailerCount === null ? 'Send' : `Send to ${plural(retailerCount, 'retailer')}`;

  return (
    <div className="action-bar" aria-busy={busy || undefined}>
      <button
        type="button"
        className="button"
        aria-disabled={unavailable || undefined}
        aria-describedby={blocker ? hintId : undefined}
        onClick={() => {
          if (!unavailable) props.onPreview();
        }}
      >
        {previewing ? 'Previewing…' : 'Preview'}
      </button>
      <button
        type="button"
        className="button primary"
        aria-disabled={unavailable || undefined}
        aria-describedby={blocker ? hintId : undefined}
        onClick={() => {
          if (!unavailable) props.onSend();
        }}
      >
        {sendLabel}
      </button>
      {sending ? (
        <span className="sending" role="status">
          <progress aria-label="Sending" />
          Sending…
        </span>
      ) : null}
      {blocker ? (
        <p id={hintId} className="hint">
          {blocker}
        </p>
      ) : null}
    </div>
  );
}
