import { describe, expect, it } from 'vitest';
import { NO_SERIALS_LEFT_MESSAGE } from '../../src/server/fulfilment/sscc';
import { api, closedAfterEach, DEVICES, signIn, starters, syncUntilQuiet } from './helpers/cluster';

const running = closedAfterEach();
const start = starters(running);

const ORDER = '0d000000-0000-4000-8000-000000000004'; // PS-SUM-2611004, Reno, Picking, brand prefix 0614141

describe('SSCC serial blocks', () => {
  it('two workstations packing offline for the same prefix never make the same SSCC; both packs reach the central', async () => {
    const central = await start.central();
    const proxies = [await start.proxyTo(central), await start.proxyTo(central)];
    const ws = [
      await start.workstation(proxies[0]!.url, DEVICES.w1),
      await start.workstation(proxies[1]!.url, DEVICES.w2),
    ];
    const blocks = await central.context.db
      .selectFrom('sscc_serial_blocks')
      .selectAll()
      .where('company_prefix', '=', '0614141')
      .orderBy('first_serial')
      .execute();
    // One block per device for the prefix of its brand; they do not overlap.
    expect(blocks.map((b) => b.device_id).sort()).toEqual([DEVICES.w1.id, DEVICES.w2.id].sort());
    expect(blocks[1]!.first_serial).toBeGreaterThan(blocks[0]!.last_serial);

    for (const proxy of proxies) proxy.setMode('drop');
    const ssccs: string[] = [];
    for (const w of ws) {
      const auth = await signIn(w);
      for (let i = 0; i < 3; i += 1) {
        const packed = await api(w, auth, 'POST', `/api/v1/orders/${ORDER}/cartons`, {
          skus: [{ sku: 'SUM-STOVE-1', quantity: 1 }],
        });
        expect(packed.status).toBe(201);
      }
      const cartons = await w.context.db
        .selectFrom('cartons')
        .select('sscc')
        .where('order_id', '=', ORDER)
        .execute();
      ssccs.push(...cartons.map((c) => c.sscc!).filter((s) => !ssccs.includes(s)));
    }
    expect(new Set(ssccs).size).toBe(6);
    for (const proxy of proxies) proxy.setMode('pass');
    for (const w of ws) await syncUntilQuiet(w);
    for (const w of ws) await syncUntilQuiet(w);
    expect(
      await central.context.db.selectFrom('sync_conflicts').select('reason').execute(),
    ).toEqual([]);
    const onCentral = await central.context.db
      .selectFrom('cartons')
      .select('sscc')
      .where('order_id', '=', ORDER)
      .execute();
    expect(new Set(onCentral.map((c) => c.sscc))).toEqual(new Set(ssccs));
  }, 60_000);

  it('a workstation without serials left refuses to pack, saying what to do', async () => {
    const central = await start.central();
    const w = await start.workstation(central.url, DEVICES.w1);
    await w.context.sync!.client!.stop();
    await w.context.db.deleteFrom('sscc_serial_blocks').execute();
    const auth = await signIn(w);
    const packed = await api(w, auth, 'POST', `/api/v1/orders/${ORDER}/cartons`, {
      skus: [{ sku: 'SUM-STOVE-1', quantity: 1 }],
    });
    expect(packed).toMatchObject({ status: 409, body: { message: NO_SERIALS_LEFT_MESSAGE } });
  }, 60_000);
});
