import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SYNC_PROTOCOL_HEADER } from '../../src/shared/sync';
import type { SyncHealth } from '../../src/shared/sync-health';
import type { RunningService } from '../../src/server/http/server';
import { parseServiceFlags } from '../../src/server/http/config';
import { startService } from '../../src/server/http/server';
import { cloneTemplate } from '../helpers/postgres/databases';
import { TEST_PASSWORD_COST } from '../helpers/service';
import type { SyncView } from '../../src/server/core/context';
import { baseBundle } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import {
  api,
  callApi,
  closedAfterEach,
  DEVICES,
  seedInto,
  signIn,
  starters,
  syncUntilQuiet,
  tempDataDir,
} from './helpers/cluster';

/** `GET /api/sync/v1/health`: the central's figures for monitoring, behind the monitoring token. */
const TOKEN = 'monitoring-token-monitoring-token-0001';
const running = closedAfterEach();
const start = starters(running);

const health = (url: string, auth: string | null) =>
  callApi(url, auth, 'GET', '/api/sync/v1/health') as Promise<{ status: number; body: SyncHealth }>;

const deviceOf = (figures: SyncHealth, id: string) =>
  figures.devices.find((d) => d.device_id === id)!;

describe('sync health on a SQLite central', () => {
  let central: RunningService;

  it('reports each device’s pull lag, the central’s latest version and no transaction figures', async () => {
    central = await start.central();
    central.context.monitoringToken = TOKEN;
    const w1 = await start.workstation(central.url, DEVICES.w1);
    await syncUntilQuiet(w1);

    const first = await health(central.url, `Bearer ${TOKEN}`);
    expect(first.status).toBe(200);
    expect(first.body.engine).toBe('sqlite');
    expect(first.body.oldest_transaction).toBeNull();
    expect(first.body.latest_version).toBeGreaterThan(0);
    const caughtUp = deviceOf(first.body, DEVICES.w1.id);
    expect(caughtUp).toMatchObject({ versions_behind: 0, disabled: false });
    expect(caughtUp.pulled_version).toBe(first.body.latest_version);
    expect(caughtUp.pull_age_seconds).toBeLessThanOrEqual(5);
    // Never pulled: no figures, and listed before every device that did.
    expect(deviceOf(first.body, DEVICES.w3.id)).toMatchObject({
      last_pull_at: null,
      pull_age_seconds: null,
      pulled_version: null,
      versions_behind: null,
      last_seq: 0,
    });
    expect(first.body.devices.at(-1)!.device_id).toBe(DEVICES.w1.id);

    // Written on the central: the device trails until its next pull.
    await w1.context.sync!.client!.stop();
    const auth = await signIn(central);
    const edit = await api(central, auth, 'PUT', '/api/v1/orders', {
      picksheet_code: 'PS-SUM-2611001',
      po_number: 'PO-HEALTH-1',
    });
    expect(edit.status).toBe(200);
    const behind = await health(central.url, `Bearer ${TOKEN}`);
    expect(behind.body.latest_version).toBeGreaterThan(first.body.latest_version);
    expect(deviceOf(behind.body, DEVICES.w1.id).versions_behind).toBe(
      behind.body.latest_version - first.body.latest_version,
    );
  });

  it('counts the deliveries this central sends that wait or failed, not those of a workstation', async () => {
    central = await start.central();
    central.context.monitoringToken = TOKEN;
    const db = central.context.db;
    const before = (await health(central.url, `Bearer ${TOKEN}`)).body.pending_deliveries;
    const old = new Date(Date.now() - 120_000).toISOString();
    const anyBrand = await db.selectFrom('brands').select('id').executeTakeFirstOrThrow();
    const anyUser = await db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    await db
      .insertInto('advice_snapshots')
      .values({
        id: 'snap-health',
        brand_id: anyBrand.id,
        facility_id: null,
        user_id: anyUser.id,
        items_json: '[]',
        item_count: 0,
        created_at: old,
      })
      .execute();
    const delivery = (n: number, status: 'PENDING' | 'FAILURE', sender: string | null) => ({
      id: `delivery-health-${n}`,
      snapshot_id: 'snap-health',
      connection_id: null,
      organization_id: null,
      retailer_id: null,
      kind: null,
      status,
      document: null,
      content_type: null,
      file_name: null,
      interchange_control_number: null,
      error: null,
      created_at: old,
      updated_at: old,
      next_attempt_at: null,
      sender_id: sender,
    });
    await db
      .insertInto('advice_deliveries')
      .values([
        delivery(1, 'PENDING', null),
        delivery(2, 'FAILURE', 'central'),
        delivery(3, 'PENDING', DEVICES.w1.id),
      ])
      .execute();
    const documents = await db
      .selectFrom('order_documents')
      .select(['id', 'status'])
      .where('direction', '=', 'out')
      .where('status', 'not in', ['queued', 'failed'])
      .limit(2)
      .execute();
    expect(documents).toHaveLength(2);
    await db
      .updateTable('order_documents')
      .set({ status: 'queued', sender_id: 'central', created_at: old })
      .where('id', '=', documents[0]!.id)
      .execute();
    await db
      .updateTable('order_documents')
      .set({ status: 'failed', sender_id: DEVICES.w1.id })
      .where('id', '=', documents[1]!.id)
      .execute();

    const after = (await health(central.url, `Bearer ${TOKEN}`)).body.pending_deliveries;
    expect(after.advices.queued).toBe(before.advices.queued + 1);
    expect(after.advices.failed).toBe(before.advices.failed + 1);
    expect(after.advices.oldest_queued_seconds).toBeGreaterThanOrEqual(119);
    expect(after.order_documents.queued).toBe(before.order_documents.queued + 1);
    expect(after.order_documents.failed).toBe(before.order_documents.failed);
    expect(after.order_documents.oldest_queued_seconds).toBeGreaterThanOrEqual(119);
  });

  it('answers the monitoring token only: not a user with admin grants, not a device, not another token', async () => {
    central = await start.central();
    const off = await health(central.url, `Bearer ${TOKEN}`);
    expect(off.status).toBe(403);
    expect(JSON.stringify(off.body)).toContain('--monitoring-token');
    central.context.monitoringToken = TOKEN;

    const admin = await signIn(central); // the demo user: admin at every demo facility
    const session = await fetch(`${central.url}/api/sync/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SYNC_PROTOCOL_HEADER]: '1' },
      body: JSON.stringify({ device_id: DEVICES.w1.id, device_secret: DEVICES.w1.secret }),
    });
    const device = `Bearer ${((await session.json()) as { token: string }).token}`;
    for (const auth of [null, admin, device, `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const answer = await health(central.url, auth);
      expect(answer.status, String(auth)).toBe(401);
      expect(JSON.stringify(answer.body)).not.toContain(DEVICES.w1.id);
    }
    // Fifty monitors at once all get the same figures.
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => health(central.url, `Bearer ${TOKEN}`)),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
  });

  it('is not served by a service that is not a central', async () => {
    const standalone = await createTestService();
    try {
      standalone.ctx.monitoringToken = TOKEN;
      const answer = await standalone.app.inject({
        method: 'GET',
        url: '/api/sync/v1/health',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(answer.statusCode).toBe(404);
    } finally {
      await standalone.close();
    }
  });

  it('refuses a monitoring token shorter than 32 characters at start, without echoing it', () => {
    expect(() =>
      parseServiceFlags(['--monitoring-token', 'short-secret'], {}, { dataDir: '/tmp/x' }),
    ).toThrow(/at least 32 characters/);
    expect(() =>
      parseServiceFlags([], { MONITORING_TOKEN: 'short-secret' }, { dataDir: '/tmp/x' }),
    ).not.toThrow(/short-secret/);
  });
});

const postgres = inject('postgres');

describe.skipIf(!postgres)('sync health on PostgreSQL', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await createTestService({ seed: baseBundle(), engine: 'postgres' });
    // The PostgreSQL central's runtime is other work (issue 17 item 2); health reads the database only.
    svc.ctx.sync = { role: 'central', deviceId: null, client: null } as unknown as SyncView;
    svc.ctx.monitoringToken = TOKEN;
    const db = svc.ctx.db;
    const now = new Date().toISOString();
    const stale = new Date(Date.now() - 3_600_000).toISOString();
    await db
      .insertInto('devices')
      .values([
        { id: 'dev-a', name: 'A', secret_hash: 'x', created_at: now },
        { id: 'dev-b', name: 'B', secret_hash: 'x', created_at: now, disabled_at: now },
      ])
      .execute();
    await db
      .insertInto('sync_clients')
      .values({ client_id: 'dev-a', last_seq: 7, last_pull_at: stale, pulled_version: 40 })
      .execute();
    await db
      .insertInto('sync_row_versions')
      .values({ tbl: 'users', row_key: '["u-1"]', version: 55, facility_id: null })
      .execute();
    await db
      .insertInto('sync_evictions')
      .values({ version: 60, facility_id: 'f', order_id: 'o' })
      .execute();
  });
  afterAll(async () => {
    await svc?.close();
  });

  const read = async () => {
    const answer = await svc.app.inject({
      method: 'GET',
      url: '/api/sync/v1/health',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<SyncHealth>();
  };

  it('reports pull lag from the stored rows, with the same rules as on SQLite', async () => {
    const figures = await read();
    expect(figures.engine).toBe('postgres');
    expect(figures.latest_version).toBe(60);
    expect(figures.devices.map((d) => d.device_id)).toEqual(['dev-b', 'dev-a']);
    expect(deviceOf(figures, 'dev-a')).toMatchObject({
      last_seq: 7,
      pulled_version: 40,
      versions_behind: 20,
      disabled: false,
    });
    expect(deviceOf(figures, 'dev-a').pull_age_seconds).toBeGreaterThanOrEqual(3599);
    expect(deviceOf(figures, 'dev-b')).toMatchObject({ disabled: true, pulled_version: null });
    expect(figures.pending_deliveries.advices).toMatchObject({ queued: 0, failed: 0 });
  });

  it('reports the oldest transaction holding an id, which holds the pull watermark back', async () => {
    const quiet = await read();
    expect(quiet.oldest_transaction).toMatchObject({ age_seconds: null });
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let opened = () => undefined as void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    // Another connection of the pool writes and stays open, as a slow request would.
    const writer = svc.ctx.db.connection().execute(async (conn) => {
      await sql`BEGIN`.execute(conn);
      await sql`UPDATE sync_clients SET last_seq = 8 WHERE client_id = 'dev-a'`.execute(conn);
      opened();
      await released;
      await sql`COMMIT`.execute(conn);
    });
    try {
      await isOpen;
      // A write that commits after it: pulls cannot serve it while the first stays open.
      await svc.ctx.db
        .insertInto('sync_row_versions')
        .values({ tbl: 'users', row_key: '["u-2"]', version: 61, facility_id: null })
        .execute();
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const held = await read();
      expect(held.oldest_transaction!.age_seconds).toBeGreaterThanOrEqual(1);
      expect(held.oldest_transaction!.watermark_lag_xids).toBeGreaterThanOrEqual(1);
    } finally {
      release();
      await writer;
    }
    const after = await read();
    expect(after.oldest_transaction).toEqual({ age_seconds: null, watermark_lag_xids: 0 });
    expect(deviceOf(after, 'dev-a').last_seq).toBe(8);
  });
});

describe.skipIf(!postgres)('sync health on a PostgreSQL central over HTTP', () => {
  it('reports the pull lag of a workstation syncing with it', async () => {
    const cloned = await cloneTemplate(postgres!);
    running.push({ close: () => cloned.drop() });
    const central = await startService(
      {
        host: '127.0.0.1',
        port: 0,
        dataDir: tempDataDir('pg-central'),
        databaseUrl: cloned.url,
        poolSize: 4,
        seed: 'demo',
        uiDir: null,
        outboxDrain: false,
        sync: { role: 'central' },
        monitoringToken: TOKEN,
      },
      { passwordCost: TEST_PASSWORD_COST },
    );
    running.push(central);
    await seedInto(central, { devices: Object.values(DEVICES) });
    const w1 = await start.workstation(central.url, DEVICES.w1);
    await syncUntilQuiet(w1);
    const first = await health(central.url, `Bearer ${TOKEN}`);
    expect(first.status).toBe(200);
    expect(first.body.engine).toBe('postgres');
    expect(first.body.oldest_transaction).toMatchObject({ age_seconds: null });
    expect(deviceOf(first.body, DEVICES.w1.id)).toMatchObject({
      pulled_version: first.body.latest_version,
      versions_behind: 0,
    });
    expect(deviceOf(first.body, DEVICES.w3.id).pulled_version).toBeNull();

    await w1.context.sync!.client!.stop();
    const edit = await api(central, await signIn(central), 'PUT', '/api/v1/orders', {
      picksheet_code: 'PS-SUM-2611001',
      po_number: 'PO-HEALTH-PG',
    });
    expect(edit.status).toBe(200);
    const behind = await health(central.url, `Bearer ${TOKEN}`);
    expect(deviceOf(behind.body, DEVICES.w1.id).versions_behind).toBeGreaterThan(0);
    expect(await health(central.url, null)).toMatchObject({ status: 401 });
  });
});
