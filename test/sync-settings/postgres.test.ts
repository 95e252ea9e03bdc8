import { describe, expect, inject, it } from 'vitest';
import { SYNC_NOT_ON_POSTGRES } from '../../src/shared/sync-settings';
import { baseBundle, installAdmin } from '../helpers/fixtures';
import { signedInService } from '../helpers/signed-in';

const URL = '/api/sync/v1/settings';

/**
 * A service on PostgreSQL (issue 17) cannot be a workstation, which is what the settings screen
 * makes: it may not save settings that would stop its next start, and says why.
 */
describe.skipIf(!inject('postgres'))('sync settings on PostgreSQL', () => {
  const session = signedInService(['install@a.test'] as const, () => {
    const bundle = baseBundle();
    bundle.users.push(installAdmin(bundle));
    return { seed: bundle, engine: 'postgres' };
  });

  it('shows them as not changeable, and refuses a save or a clear with the reason (409)', async () => {
    const view = await session.get('install@a.test', URL);
    expect(view.statusCode).toBe(200);
    expect(view.json().data).toMatchObject({
      source: 'none',
      can_change: false,
      problem: SYNC_NOT_ON_POSTGRES,
    });

    const saved = await session.svc.app.inject({
      method: 'PUT',
      url: URL,
      headers: session.headers('install@a.test'),
      payload: {
        central_url: 'https://central.example.com/',
        device_id: 'd1000000-0000-4000-8000-000000000001',
        device_secret: 'w1-secret-w1-secret',
      },
    });
    expect(saved.statusCode).toBe(409);
    expect(saved.json()).toMatchObject({ message: SYNC_NOT_ON_POSTGRES });

    const cleared = await session.svc.app.inject({
      method: 'PUT',
      url: URL,
      headers: session.headers('install@a.test'),
      payload: { clear: true },
    });
    expect(cleared.statusCode).toBe(409);
    expect(cleared.json()).toMatchObject({ message: SYNC_NOT_ON_POSTGRES });
  });
});
