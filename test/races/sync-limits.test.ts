/**
 * The central's sync limits under 50+ parallel requests on both engines (test/sync/bad-input
 * runs them on SQLite): SSCC serial block leases of one prefix never overlap, and a device's
 * sign-in throttle admits exactly its allowance of wrong secrets.
 */
import { expect, it } from 'vitest';
import type { RunningService } from '../../src/server/http/server';
import { describeEngines } from '../helpers/engines';
import { centralForAllTests, DEVICES } from '../sync/helpers/cluster';
import { expectBackToBackBlocks, expectSignInThrottle } from '../sync/helpers/limits';
import { signInDevice, syncCall } from '../sync/helpers/raw-push';

describeEngines('sync limits under parallel requests', (engine) => {
  let central: RunningService;
  centralForAllTests((started) => {
    central = started;
  }, engine);

  const post = (path: string, body: unknown, auth?: string) =>
    syncCall(central.url, path, { method: 'POST', body: JSON.stringify(body), auth });

  it('60 parallel SSCC block leases of one prefix by two devices: 60 blocks, back to back', async () => {
    const auths = [
      await signInDevice(central.url, DEVICES.w1),
      await signInDevice(central.url, DEVICES.w2),
    ];
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        post('/api/sync/v1/sscc-blocks', { company_prefix: '0614142' }, auths[i % 2]),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
    expectBackToBackBlocks(answers);
  });

  it('60 parallel wrong secrets for one device admit 5; the right secret is then refused too', async () => {
    await expectSignInThrottle(central, {
      id: 'd1000000-0000-4000-8000-0000000000ab',
      name: 'Savannah races',
      secret: 'races-secret-races-secret',
    });
  });
});
