import { useServiceHealth } from '../api/health';

/**
 * A full disk refuses every write until space is freed; say so in the header on every screen,
 * so a clerk does not type a whole order first. Gone once health says a write succeeded again
 * (asked after every save while it shows). One sentence: the service's message says what fails.
 */
export function DiskFullBanner() {
  const health = useServiceHealth().data;
  return (
    // The live region stays mounted (empty) so the notice is heard when it appears; the alert
    // role only while there is something to say, so screens' own alerts stay the only ones.
    <div className="disk-full-region" aria-live="assertive">
      {health?.status === 'disk_full' ? (
        <p className="disk-full-banner" role="alert">
          {health.message ?? 'The disk holding the data is full'}; everything can still be viewed.
        </p>
      ) : null}
    </div>
  );
}
