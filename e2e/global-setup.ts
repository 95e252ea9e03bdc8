import { buildServiceBundle, bundleIsFresh } from '../scripts/service-bundle.mjs';
import { wipeDataRoot } from './service';

/**
 * Before the workers start: the data dirs of the last run go, and the service bundle the spec
 * services run is rebuilt when any of its sources is newer, so no run tests yesterday's code.
 */
export default async function globalSetup(): Promise<void> {
  wipeDataRoot();
  if (!bundleIsFresh()) await buildServiceBundle();
}
