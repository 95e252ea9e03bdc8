import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningService } from '../../src/server/http/server';
import {
  api,
  DEVICES,
  eventually,
  orderByCode,
  removeTempDirs,
  RENO,
  signIn,
  startCentral,
  startWorkstation,
} from '../sync/helpers/cluster';
import { signInDevice, syncCall } from '../sync/helpers/raw-push';

/*
 * `--role central` with `--database-url` (issue 17 item 2): device sessions and pulls over HTTP
 * from a central on PostgreSQL, and a workstation (SQLite) taking its first pull from it.
 */
const postgres = inject('postgres');

describe.skipIf(!postgres)('a central on PostgreSQL', () => {
  let central: RunningService;
  const running: RunningService[] = [];
  beforeAll(async () => {
    central = await startCentral({ engine: 'postgres' });
  });
  afterAll(async () => {
    for (const service of running) await service.close();
    await central?.close();
    removeTempDirs();
  });

  const pull = (auth: string, cursor?: string) =>
    syncCall(central.url, `/api/sync/v1/pull?limit=200${cursor ? `&cursor=${cursor}` : ''}`, {
      auth,
    });

  it('opens device sessions and refuses a wrong secret', async () => {
    const wrong = await syncCall(central.url, '/api/sync/v1/session', {
      method: 'POST',
      body: JSON.stringify({ device_id: DEVICES.w1.id, device_secret: 'not-the-secret-at-all' }),
    });
    expect(wrong.status).toBe(401);
    expect(await signInDevice(central.url, DEVICES.w1)).toMatch(/^Bearer /);
  });

  it("pulls the device's facility in pages, each row once, to the end", async () => {
    const auth = await signInDevice(central.url, DEVICES.w1);
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const answer = await pull(auth, cursor);
      expect(answer.status).toBe(200);
      const page = answer.body as unknown as {
        cursor: string;
        more: boolean;
        changes: { t: string; k: unknown[]; row?: Record<string, unknown> }[];
      };
      for (const change of page.changes) {
        const key = `${change.t}:${JSON.stringify(change.k)}`;
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
        if (change.t === 'orders') expect(change.row!.facility_id).toBe(RENO);
      }
      cursor = page.cursor;
      pages += 1;
      if (!page.more) break;
    }
    expect(pages).toBeGreaterThan(1);
    expect([...seen].some((k) => k.startsWith('orders:'))).toBe(true);
    // Nothing new: the next pull is empty.
    const after = await pull(auth, cursor);
    expect((after.body as unknown as { changes: unknown[] }).changes).toEqual([]);
  });

  it('takes a push over HTTP: applied, last_seq advanced, answered after the commit', async () => {
    const auth = await signInDevice(central.url, DEVICES.w2);
    // The demo's Reno order that is Open (Summit, Big Box).
    const byId = () =>
      central.context.db
        .selectFrom('orders')
        .select(['id', 'po_number'])
        .where('id', '=', '0d000000-0000-4000-8000-000000000001')
        .executeTakeFirstOrThrow();
    const order = await byId();
    const answer = await syncCall(central.url, '/api/sync/v1/push', {
      method: 'POST',
      auth,
      body: JSON.stringify({
        mutations: [
          {
            seq: 1,
            name: 'TEST',
            args: {
              changes: [
                {
                  t: 'orders',
                  op: 'U',
                  k: [order.id],
                  old: { po_number: order.po_number },
                  new: { po_number: 'PO-PUSHED-TO-PG' },
                },
              ],
            },
            at: new Date().toISOString(),
          },
        ],
      }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ applied: 1, rejected: 0, last_seq: 1 });
    expect((await byId()).po_number).toBe('PO-PUSHED-TO-PG');
  });

  it('shows its sync settings as set by the start-up flags, with no problem to report', async () => {
    const answer = await api(central, await signIn(central), 'GET', '/api/sync/v1/settings');
    expect(answer.status).toBe(200);
    expect(answer.body.data ?? answer.body).toMatchObject({
      source: 'flags',
      active_role: 'central',
      problem: null,
    });
  });

  it("gives a workstation the central's orders, and what changes there next", async () => {
    const workstation = await startWorkstation(central.url, DEVICES.w1);
    running.push(workstation);
    const code = 'PS-SUM-2611001';
    const order = await orderByCode(central, code);
    await eventually(async () => expect((await orderByCode(workstation, code)).id).toBe(order.id));
    await central.context.db
      .updateTable('orders')
      .set({ po_number: 'PO-FROM-PG' })
      .where('id', '=', order.id)
      .execute();
    await eventually(async () =>
      expect((await orderByCode(workstation, code)).po_number).toBe('PO-FROM-PG'),
    );
    // And an edit made on the workstation goes up.
    const edit = await api(workstation, await signIn(workstation), 'PUT', '/api/v1/orders', {
      picksheet_code: code,
      po_number: 'PO-FROM-WORKSTATION',
    });
    expect(edit.status).toBe(200);
    await eventually(async () =>
      expect((await orderByCode(central, code)).po_number).toBe('PO-FROM-WORKSTATION'),
    );
  });
});
