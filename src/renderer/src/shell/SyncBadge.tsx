import { Link } from '@tanstack/react-router';
import { useSyncStatus } from '../api/sync';
import { badgeSentence, badgeTone } from '../screens/sync/syncFormat';

/**
 * The header's sync state, a link to the Sync screen. Nothing shows on a standalone install or
 * before the first answer; the live region stays mounted so screen readers hear each change.
 */
export function SyncBadge() {
  const status = useSyncStatus().data;
  const sentence = status ? badgeSentence(status) : null;
  return (
    <div className="sync-badge-region" aria-live="polite">
      {status && sentence ? (
        <Link to="/sync" className={`sync-badge sync-badge-${badgeTone(status)}`}>
          {sentence}
        </Link>
      ) : null}
    </div>
  );
}
