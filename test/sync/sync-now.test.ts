import { describe, expect, it } from 'vitest';
import {
  api,
  closedAfterEach,
  DEVICES,
  pendingMutations,
  RENO,
  signIn,
  starters,
} from './helpers/cluster';

/**
 * "Sync now" while a round is in flight waits for a round that starts after the call
 * (sync/client.ts syncNow): the one in flight pushed before the clerk's edit, so joining it
 * would answer with the edit still waiting. The network to the central is slowed so the first
 * round is still pulling when the edit is made.
 */
const BRAND = '0b000000-0000-4000-8000-000000000001';
const RETAILER = '0e000000-0000-4000-8000-000000000001';

describe('sync now while a round is in flight', () => {
  const running = closedAfterEach();
  const start = starters(running);

  it('waits for a round after the call, so an edit made meanwhile is pushed', async () => {
    const central = await start.central();
    const proxy = await start.proxyTo(central);
    // No timer rounds meanwhile: only the calls below sync.
    const w1 = await start.workstation(proxy.url, DEVICES.w1, { client: { intervalMs: 60_000 } });
    const client = w1.context.sync!.client!;
    const auth = await signIn(w1);
    proxy.setMode({ delay: 150 });
    const first = client.syncNow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const created = await api(w1, auth, 'POST', '/api/v1/orders/create', {
      picksheet_code: 'PS-DURING-ROUND',
      brand_id: BRAND,
      retailer_id: RETAILER,
      facility_id: RENO,
      items: [{ sku: 'SKU-NEW', quantity: 1 }],
    });
    expect(created.status).toBe(201);
    expect(await pendingMutations(w1)).toBe(1);
    await client.syncNow();
    expect(await pendingMutations(w1)).toBe(0);
    await first;
    expect(client.lastError).toBeNull();
  });
});
