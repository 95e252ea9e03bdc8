import { describe, expect, it } from 'vitest';
import {
  api,
  closedAfterEach,
  DEVICES,
  orderByCode,
  RENO,
  SAVANNAH,
  seedInto,
  signIn,
  starters,
  syncUntilQuiet,
} from './helpers/cluster';

/** Issue 18, item 5, on a workstation: the same rules as on the central, before anything is pushed. */

const BRAND_1 = '0b000000-0000-4000-8000-000000000001';
const running = closedAfterEach();
const start = starters(running);

describe('resolving on a workstation', () => {
  it('apply mine needs the admin grant there too, and is refused once the order shipped', async () => {
    const central = await start.central();
    await seedInto(central, {
      users: [
        { email: 'clerk@example.com', password: 'password-clerk', facility_ids: [RENO] },
        {
          email: 'sav-admin@example.com',
          password: 'password-sav',
          facility_ids: [RENO, SAVANNAH],
          admin: [{ brand_id: BRAND_1, facility_id: SAVANNAH }],
        },
      ],
    });
    const proxy = await start.proxyTo(central);
    const w1 = await start.workstation(proxy.url, DEVICES.w1);
    const centralAuth = await signIn(central);
    const admin = await signIn(w1);
    const others = [
      await signIn(w1, 'clerk@example.com', 'password-clerk'),
      await signIn(w1, 'sav-admin@example.com', 'password-sav'),
    ];

    // The same field changed offline on W1 and on the central, on two orders.
    proxy.setMode('drop');
    for (const code of ['PS-SUM-2611001', 'PS-SUM-2611004']) {
      const body = { picksheet_code: code, po_number: `W1-${code}` };
      expect((await api(w1, admin, 'PUT', '/api/v1/orders', body)).status).toBe(200);
      const central1 = { picksheet_code: code, po_number: `CENTRAL-${code}` };
      expect((await api(central, centralAuth, 'PUT', '/api/v1/orders', central1)).status).toBe(200);
    }
    proxy.setMode('pass');
    await syncUntilQuiet(w1);
    const items = (await api(w1, admin, 'GET', '/api/sync/v1/conflicts')).body.data.items;
    const byCode = (code: string) => items.find((item) => item.picksheet_code === code)!;
    const first = byCode('PS-SUM-2611001');
    const second = byCode('PS-SUM-2611004');
    expect(first.offers).toEqual(['keep_central', 'apply_mine']);

    for (const auth of others) {
      const seen = (await api(w1, auth, 'GET', '/api/sync/v1/conflicts')).body.data.items;
      expect(seen.find((item) => item.id === first.id)?.offers).toEqual(['keep_central']);
      const refused = await api(w1, auth, 'POST', `/api/sync/v1/conflicts/${first.id}/resolve`, {
        action: 'apply_mine',
      });
      expect(refused.status).toBe(403);
    }
    expect((await orderByCode(w1, 'PS-SUM-2611001')).po_number).toBe('CENTRAL-PS-SUM-2611001');

    const applied = await api(w1, admin, 'POST', `/api/sync/v1/conflicts/${first.id}/resolve`, {
      action: 'apply_mine',
    });
    expect(applied.status).toBe(200);
    await syncUntilQuiet(w1);
    expect((await orderByCode(central, 'PS-SUM-2611001')).po_number).toBe('W1-PS-SUM-2611001');

    // Shipped on the central: W1 offers no Apply mine and refuses it.
    await central.context.db
      .updateTable('orders')
      .set({ status: 'Shipped' })
      .where('picksheet_code', '=', 'PS-SUM-2611004')
      .execute();
    await syncUntilQuiet(w1);
    const after = (await api(w1, admin, 'GET', '/api/sync/v1/conflicts')).body.data.items;
    expect(after.find((item) => item.id === second.id)?.offers).toEqual(['keep_central']);
    const late = await api(w1, admin, 'POST', `/api/sync/v1/conflicts/${second.id}/resolve`, {
      action: 'apply_mine',
    });
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/^Order PS-SUM-2611004 is Shipped on the central service/);
    await syncUntilQuiet(w1);
    expect((await orderByCode(central, 'PS-SUM-2611004')).po_number).toBe('CENTRAL-PS-SUM-2611004');
  }, 90_000);
});
