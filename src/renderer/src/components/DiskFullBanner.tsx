import { useServiceHealth } from '../api/health';

/**
 * A full disk refuses every write until space is freed; say so in the header on every screen,
 * so a clerk does not type a whole order first. Gone once a write succeeds again (health says).
 */
export function DiskFullBanner() {
  const health = useServiceHealth().data;
  return (
    <div className="disk-full-region" role="alert">
      {health?.status === 'disk_full' ? (
        <p className="disk-full-banner">
          {health.message ?? 'The disk holding the data is full'}. Saving does not work until space
          is freed on this computer; everything can still be viewed.
        </p>
      ) : null}
    </div>
  );
}
