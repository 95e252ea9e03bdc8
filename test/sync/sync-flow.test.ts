import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/main/service/server';
import {
  api,
  DEVICES,
  eventually,
  removeTempDirs,
  RENO,
  signIn,
  startCentral,
  startWorkstation,
  syncUntilQuiet,
} from './helpers/cluster';

const running: RunningService[] = [];
afterEach(async () => {
  for (const service of running.splice(0).reverse()) await service.close();
});
afterAll(removeTempDirs);

describe('sync: a central and two workstations', () => {
  it('a fresh workstation pulls its facilities, an edit goes up and reaches the other', async () => {
    const central = await startCentral();
    running.push(central);
    const w1 = await startWorkstation(central.url, DEVICES.w1);
    running.push(w1);
    const w2 = await startWorkstation(central.url, DEVICES.w2);
    running.push(w2);
    await syncUntilQuiet(w1);
    await syncUntilQuiet(w2);

    const auth1 = await signIn(w1);
    const orders = await w1.context.db
      .selectFrom('orders')
      .select(['id', 'facility_id', 'picksheet_code'])
      .execute();
    expect(orders.length).toBeGreaterThan(0);
    expect(new Set(orders.map((o) => o.facility_id))).toEqual(new Set([RENO]));

    const edit = await api(w1, auth1, 'PUT', '/api/v1/orders', {
      picksheet_code: 'PS-SUM-2611001',
      po_number: 'PO-FROM-W1',
    });
    expect(edit.status).toBe(200);
    const status = await api(w1, auth1, 'GET', '/api/sync/v1/status');
    expect(status.body.role).toBe('workstation');
    await syncUntilQuiet(w1);
    const onCentral = await central.context.db
      .selectFrom('orders')
      .select('po_number')
      .where('picksheet_code', '=', 'PS-SUM-2611001')
      .executeTakeFirstOrThrow();
    expect(onCentral.po_number).toBe('PO-FROM-W1');
    await syncUntilQuiet(w2);
    const onW2 = await w2.context.db
      .selectFrom('orders')
      .select('po_number')
      .where('picksheet_code', '=', 'PS-SUM-2611001')
      .executeTakeFirstOrThrow();
    expect(onW2.po_number).toBe('PO-FROM-W1');
    const after = await api(w1, auth1, 'GET', '/api/sync/v1/status');
    expect(after.body).toMatchObject({
      role: 'workstation',
      online: true,
      pending_mutations: 0,
      conflicts: 0,
    });
    await eventually(() => after.body.last_pull_at !== null);

    // Written centrally, read everywhere: a workstation refuses these writes.
    const brand = '0b000000-0000-4000-8000-000000000001';
    const refusals = [
      await api(w1, auth1, 'PUT', `/api/v1/billing/prices/${brand}`, { prices: {} }),
      await api(w1, auth1, 'PUT', `/api/v1/brands/${brand}/gs1-prefix`, {
        gs1_company_prefix: '0614141',
      }),
      await api(w1, auth1, 'POST', '/api/v1/chargebacks/import', { brand_id: brand, csv: 'x' }),
      await api(w1, auth1, 'POST', '/api/v1/pos-reports/import', { brand_id: brand, csv: 'x' }),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(409);
      expect(refusal.body.message).toBe(
        'This is changed on the central service only; a workstation receives it from there',
      );
    }
  }, 60_000);
});
