import { useId } from 'react';
import { plural } from '../../format/plural';

interface ActionBarProps {
  /** Why Preview and Send cannot run yet, or null when they can. */
  blocker: string | null;
  busy: boolean;
  sending: boolean;
  previewing: boolean;
  /** Send is previewing and checking the history before it sends. */
  checking?: boolean;
  /** How many retailers a send reaches, when known. */
  retailerCount: number | null;
  /** Rows with problems (shown, with "Next problem", while there are any). */
  problemRows?: number;
  onNextProblem?: () => void;
  onPreview: () => void;
  onSend: () => void;
}

/**
 * Preview, Send and the problem count, in a bar that stays at the bottom of the window while the
 * rows scroll. The buttons stay focusable when they cannot run, and say why next to them.
 */
export function ActionBar(props: ActionBarProps) {
  const { blocker, busy, sending, previewing, checking = false, retailerCount } = props;
  const problemRows = props.problemRows ?? 0;
  const hintId = useId();
  const unavailable = blocker !== null || busy || checking;
  const sendLabel =
    retailerCount === null ? 'Send' : `Send to ${plural(retailerCount, 'retailer')}`;

  return (
    <div
      className="action-bar"
      role="region"
      aria-label="Actions"
      aria-busy={busy || checking || undefined}
    >
      <button
        type="button"
        className="button"
        aria-disabled={unavailable || undefined}
        aria-describedby={blocker ? hintId : undefined}
        onClick={() => {
          if (!unavailable) props.onPreview();
        }}
      >
        {previewing && !checking ? 'Previewing…' : 'Preview'}
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
      {problemRows > 0 && props.onNextProblem ? (
        <>
          <span className="problem-count">{plural(problemRows, 'row')} with problems</span>
          <button type="button" className="button" onClick={props.onNextProblem}>
            Next problem
          </button>
        </>
      ) : null}
      {checking ? (
        <span className="sending" role="status">
          <progress aria-label="Checking" />
          Checking the preview before sending…
        </span>
      ) : null}
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
