import { expect } from 'vitest';
import type { RunningService } from '../../../src/server/http/server';
import { SSCC_BLOCK_SIZE } from '../../../src/server/sync/central';
import { type ApiBody, SAVANNAH, seedInto } from './cluster';
import { syncCall } from './raw-push';

/** Parallel SSCC block leases of one prefix: every block is one block long, each right after the last. */
export function expectBackToBackBlocks(answers: { body: ApiBody }[]): void {
  const blocks = answers
    .map((a) => a.body as unknown as { first_serial: number; last_serial: number })
    .sort((a, b) => a.first_serial - b.first_serial);
  for (const [i, block] of blocks.entries()) {
    expect(block.last_serial - block.first_serial + 1).toBe(SSCC_BLOCK_SIZE);
    if (i > 0) expect(block.first_serial).toBe(blocks[i - 1]!.last_serial + 1);
  }
}

/**
 * Seeds a new device at Savannah and sends 60 sign-ins with a wrong secret at once: the throttle
 * lets 5 through (401) and refuses 55 (429), and then refuses the right secret too.
 */
export async function expectSignInThrottle(
  central: RunningService,
  device: { id: string; name: string; secret: string },
): Promise<void> {
  const post = (body: unknown) =>
    syncCall(central.url, '/api/sync/v1/session', { method: 'POST', body: JSON.stringify(body) });
  await seedInto(central, { devices: [{ ...device, facility_ids: [SAVANNAH] }] });
  const answers = await Promise.all(
    Array.from({ length: 60 }, () =>
      post({ device_id: device.id, device_secret: 'wrong-secret-wrong' }),
    ),
  );
  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s === 401)).toHaveLength(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(55);
  expect(answers.find((a) => a.status === 429)!.body.message).toMatch(
    /^Too many failed sign-in attempts; try again in /,
  );
  const right = await post({ device_id: device.id, device_secret: device.secret });
  expect(right.status).toBe(429);
}
