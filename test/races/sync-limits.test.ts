/**
 * The central's sync limits under 50+ parallel requests on both engines (test/sync/bad-input
 * runs them on SQLite): SSCC serial block leases of one prefix never overlap, and a device's
 * sign-in throttle admits exactly its allowance of wrong secrets.
 */
import { expect, it } from 'vitest';
import type { RunningService } from '../../src/server/http/server';
import { SSCC_BLOCK_SIZE } from '../../src/server/sync/central';
import { describeEngines } from '../helpers/engines';
import { centralForAllTests, DEVICES, SAVANNAH, seedInto } from '../sync/helpers/cluster';
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
    const blocks = answers
      .map((a) => a.body as unknown as { first_serial: number; last_serial: number })
      .sort((a, b) => a.first_serial - b.first_serial);
    for (const [i, block] of blocks.entries()) {
      expect(block.last_serial - block.first_serial + 1).toBe(SSCC_BLOCK_SIZE);
      if (i > 0) expect(block.first_serial).toBe(blocks[i - 1]!.last_serial + 1);
    }
  });

  it('60 parallel wrong secrets for one device admit 5; the right secret is then refused too', async () => {
    const device = {
      id: 'd1000000-0000-4000-8000-0000000000ab',
      name: 'Savannah races',
      facility_ids: [SAVANNAH],
      secret: 'races-secret-races-secret',
    };
    await seedInto(central, { devices: [device] });
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        post('/api/sync/v1/session', { device_id: device.id, device_secret: 'wrong-secret-wrong' }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(55);
    expect(answers.find((a) => a.status === 429)!.body.message).toMatch(
      /^Too many failed sign-in attempts; try again in /,
    );
    const right = await post('/api/sync/v1/session', {
      device_id: device.id,
      device_secret: device.secret,
    });
    expect(right.status).toBe(429);
  });
});
