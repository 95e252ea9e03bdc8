import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { documentPath, documentsDir, storeDocument } from '../../src/server/core/file-store';
import { signInDevice, syncCall } from './helpers/raw-push';
import { migrateCentral } from '../../src/server/db/migrate-central';
import { postgresApplySql } from '../../src/server/sync/apply-sql-postgres';
import { applyPush } from '../../src/server/sync/central-apply';
import type { PushedMutation } from '../../src/server/sync/protocol';
import { startService } from '../../src/server/http/server';
import { databaseUrl, onAdmin } from '../helpers/postgres/databases';
import { TEST_PASSWORD_COST } from '../helpers/service';
import {
  api,
  closedAfterEach,
  DEVICES,
  orderByCode,
  signIn,
  signInAt,
  startCentral,
  startWorkstation,
  syncUntilQuiet,
  tempDataDir,
} from './helpers/cluster';

/**
 * `npm run migrate-central`: a SQLite central that workstations synced with, copied into an empty
 * PostgreSQL database. Every row equal, the epoch, versions, devices' last_seq and secrets kept.
 */
const postgres = inject('postgres');
const running = closedAfterEach();
const databases: string[] = [];
afterAll(async () => {
  if (postgres) {
    await onAdmin(
      postgres.adminUrl,
      databases.map((name) => `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    );
  }
});

async function emptyDatabase(): Promise<string> {
  const name = `mc_${randomBytes(6).toString('hex')}`;
  databases.push(name);
  await onAdmin(postgres!.adminUrl, [`CREATE DATABASE ${name}`]);
  return databaseUrl(postgres!.adminUrl, name);
}

/** A SQLite central with the demo, W1 synced and a pushed edit, a conflict, and one stored file; stopped. */
async function syncedCentral(): Promise<{ dataDir: string; file: string }> {
  const dataDir = tempDataDir('central');
  const central = await startCentral({ dataDir });
  const w1 = await startWorkstation(central.url, DEVICES.w1);
  await syncUntilQuiet(w1);
  const auth = await signIn(w1);
  const edit = await api(w1, auth, 'PUT', '/api/v1/orders', {
    picksheet_code: 'PS-SUM-2611001',
    po_number: 'PO-BEFORE-MOVE',
  });
  expect(edit.status).toBe(200);
  await syncUntilQuiet(w1);
  const stored = await storeDocument(dataDir, Buffer.from('%PDF-1.4 a bill of lading'));
  await w1.close();
  await central.close();
  return { dataDir, file: stored.sha256 };
}

type Row = Record<string, unknown>;
const text = (value: unknown) =>
  value === null || value === undefined
    ? null
    : Buffer.isBuffer(value)
      ? value.toString('hex')
      : String(value);

/** Every row of a table as sorted JSON texts, over the given columns, with values as text. */
function normalised(rows: Row[], columns: string[]): string[] {
  return rows.map((row) => JSON.stringify(columns.map((c) => text(row[c])))).sort();
}

describe.skipIf(!postgres)('migrate-central: a SQLite central into PostgreSQL', () => {
  it('copies every table row for row, keeps the epoch, versions and last_seq, and refuses a second copy', async () => {
    const { dataDir } = await syncedCentral();
    const url = await emptyDatabase();
    const lines: string[] = [];
    const summary = await migrateCentral({
      from: dataDir,
      databaseUrl: url,
      log: (l) => lines.push(l),
    });
    expect(summary.skipped.every((t) => /search/.test(t))).toBe(true);
    expect(summary.lastVersion).toBeGreaterThan(0);
    expect(summary.devices).toBe(Object.keys(DEVICES).length);

    const sqlite = new SQLite(join(dataDir, 'app.sqlite'), { readonly: true });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const { name, rows } of summary.tables) {
        const columns = (
          await client.query<{ column_name: string }>(
            `SELECT column_name FROM information_schema.columns WHERE table_name = $1`,
            [name],
          )
        ).rows
          .map((r) => r.column_name)
          .filter(
            (c) =>
              c !== 'xid' &&
              !(name === 'sync_row_versions' && c === 'src_rowid') &&
              // PostgreSQL computes it from the row (0018_transactions_search_key).
              !(name === 'transactions' && c === 'search_key'),
          );
        const fromSqlite = sqlite.prepare(`SELECT * FROM "${name}"`).all() as Row[];
        const fromPg = (await client.query<Row>(`SELECT * FROM "${name}"`)).rows;
        expect(fromPg.length, name).toBe(rows);
        expect(normalised(fromPg, columns), name).toEqual(normalised(fromSqlite, columns));
      }
      const epoch = sqlite.prepare(`SELECT epoch FROM sync_meta`).get() as { epoch: string };
      expect(summary.epoch).toBe(epoch.epoch);
      const lastSeq = sqlite
        .prepare(`SELECT last_seq FROM sync_clients WHERE client_id = ?`)
        .get(DEVICES.w1.id) as { last_seq: number };
      expect(lastSeq.last_seq).toBeGreaterThan(0);
      const copiedSeq = await client.query(
        `SELECT last_seq::int AS n FROM sync_clients WHERE client_id = $1`,
        [DEVICES.w1.id],
      );
      expect(copiedSeq.rows[0].n).toBe(lastSeq.last_seq);
      // No trigger ran during the copy: no version newer than the SQLite central's.
      const highest = await client.query(`SELECT max(version)::int AS v FROM sync_row_versions`);
      expect(highest.rows[0].v).toBe(summary.lastVersion);
    } finally {
      sqlite.close();
      await client.end();
    }

    await expect(migrateCentral({ from: dataDir, databaseUrl: url })).rejects.toThrow(
      /The database is not empty \(table \w+ has rows\)/,
    );
  });

  it('a PostgreSQL service on the copy signs the same users in, and tokens from before the move stay valid (the signing secret moved into the database)', async () => {
    const { dataDir } = await syncedCentral();
    const before = await startCentral({ dataDir, seed: false });
    const oldToken = await signIn(before);
    await before.close();
    const url = await emptyDatabase();
    await migrateCentral({ from: dataDir, databaseUrl: url });
    const onPg = await startService(
      {
        host: '127.0.0.1',
        port: 0,
        dataDir: tempDataDir('pg-service'),
        seed: null,
        uiDir: null,
        outboxDrain: false,
        databaseUrl: url,
        poolSize: 2,
      },
      { passwordCost: TEST_PASSWORD_COST },
    );
    running.push(onPg);
    await signInAt(onPg.url);
    const orders = await api(onPg, oldToken, 'GET', '/api/v1/orders?search=PS-SUM-2611001');
    expect(orders.status).toBe(200);
  });

  it('moves the stored files into the database, byte for byte', async () => {
    const { dataDir, file } = await syncedCentral();
    const url = await emptyDatabase();
    const summary = await migrateCentral({ from: dataDir, databaseUrl: url });
    const onDisk = readdirSync(documentsDir(dataDir)).filter((n) => n.endsWith('.pdf'));
    expect(summary.files).toMatchObject({ intoDatabase: true, files: onDisk.length, damaged: [] });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ sha256: string; content: Buffer }>(
        `SELECT sha256, content FROM stored_files ORDER BY sha256`,
      );
      expect(rows.map((r) => `${r.sha256}.pdf`)).toEqual([...onDisk].sort());
      for (const row of rows) {
        expect(row.content.equals(readFileSync(documentPath(dataDir, row.sha256)))).toBe(true);
      }
      expect(rows.map((r) => r.sha256)).toContain(file);
    } finally {
      await client.end();
    }
  });

  it('a workstation synced with the SQLite central carries on with the PostgreSQL copy: no reset, nothing twice, nothing lost, its next mutation applied at the next seq', async () => {
    const dataDir = tempDataDir('central');
    const central = await startCentral({ dataDir });
    const stationDir = tempDataDir('w1');
    let w1 = await startWorkstation(central.url, DEVICES.w1, { dataDir: stationDir });
    await syncUntilQuiet(w1);
    const edit = await api(w1, await signIn(w1), 'PUT', '/api/v1/orders', {
      picksheet_code: 'PS-SUM-2611001',
      po_number: 'PO-BEFORE-MOVE',
    });
    expect(edit.status).toBe(200);
    await syncUntilQuiet(w1);
    const before = await w1.context.db
      .selectFrom('sync_state')
      .select(['cursor', 'acked_seq'])
      .executeTakeFirstOrThrow();
    expect(before.acked_seq).toBeGreaterThan(0);
    await w1.close();
    await central.close();

    const url = await emptyDatabase();
    const summary = await migrateCentral({ from: dataDir, databaseUrl: url });
    const onPg = await startService(
      {
        host: '127.0.0.1',
        port: 0,
        dataDir: tempDataDir('pg-central'),
        seed: null,
        uiDir: null,
        outboxDrain: false,
        databaseUrl: url,
        poolSize: 4,
        sync: { role: 'central' },
      },
      { passwordCost: TEST_PASSWORD_COST },
    );
    running.push(onPg);

    // The workstation's SQLite-era cursor: same epoch, no reset, nothing served again.
    const device = await signInDevice(onPg.url, DEVICES.w1);
    const again = await syncCall(
      onPg.url,
      `/api/sync/v1/pull?cursor=${encodeURIComponent(before.cursor!)}`,
      { auth: device },
    );
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      epoch: summary.epoch,
      reset: false,
      more: false,
      changes: [],
      evictions: [],
      last_seq: before.acked_seq,
    });

    // Written on the PostgreSQL central: the workstation gets it; its own edit goes up next.
    const onCentral = await api(onPg, await signIn(onPg), 'PUT', '/api/v1/orders', {
      picksheet_code: 'PS-SUM-2611001',
      po_number: 'PO-AFTER-MOVE-CENTRAL',
    });
    expect(onCentral.status).toBe(200);
    w1 = await startWorkstation(onPg.url, DEVICES.w1, { dataDir: stationDir });
    running.push(w1);
    await syncUntilQuiet(w1);
    expect((await orderByCode(w1, 'PS-SUM-2611001')).po_number).toBe('PO-AFTER-MOVE-CENTRAL');
    // The workstation's next mutation goes up at the next seq. Pushing over HTTP to a PostgreSQL
    // central is not wired yet (central.ts), so it goes through the PostgreSQL apply as the push
    // route will call it; the route's own test belongs with that work.
    await w1.context.sync!.client!.stop();
    const fromStation = await api(w1, await signIn(w1), 'PUT', '/api/v1/orders', {
      picksheet_code: 'PS-SUM-2611001',
      po_number: 'PO-AFTER-MOVE-W1',
    });
    expect(fromStation.status).toBe(200);
    const queued = await w1.context.db
      .selectFrom('sync_mutations')
      .selectAll()
      .where('seq', '>', before.acked_seq)
      .execute();
    expect(queued.map((m) => m.seq)).toEqual([before.acked_seq + 1]);
    const mutations = queued.map((m) => ({
      seq: m.seq,
      name: m.name,
      args: JSON.parse(m.args) as PushedMutation['args'],
      base_version: m.base_version,
      at: m.at,
    }));
    const push = (batch: PushedMutation[]) =>
      onPg.context.db
        .connection()
        .execute((connection) =>
          applyPush(
            { sql: postgresApplySql(connection), now: () => new Date() },
            DEVICES.w1.id,
            new Set(DEVICES.w1.facility_ids),
            batch,
          ),
        );
    expect(await push(mutations)).toMatchObject({
      last_seq: before.acked_seq + 1,
      applied: 1,
      duplicates: 0,
      gap: null,
    });
    // Sent again (an answer lost on the way): applied once.
    expect(await push(mutations)).toMatchObject({ applied: 0, duplicates: 1 });
    expect((await orderByCode(onPg, 'PS-SUM-2611001')).po_number).toBe('PO-AFTER-MOVE-W1');
    const client = await onPg.context.db
      .selectFrom('sync_clients')
      .select('last_seq')
      .where('client_id', '=', DEVICES.w1.id)
      .executeTakeFirstOrThrow();
    expect(Number(client.last_seq)).toBe(before.acked_seq + 1);
    // Still the same workstation data: one row per order, not a copy pulled again.
    const codes = await w1.context.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('picksheet_code', '=', 'PS-SUM-2611001')
      .executeTakeFirstOrThrow();
    expect(Number(codes.n)).toBe(1);
  });

  it('refuses a data dir that is not a central, one in use, and a database with data, touching neither', async () => {
    const standalone = tempDataDir('standalone');
    const service = await startService({
      host: '127.0.0.1',
      port: 0,
      dataDir: standalone,
      seed: null,
      uiDir: null,
      outboxDrain: false,
    });
    const url = await emptyDatabase();
    await expect(migrateCentral({ from: standalone, databaseUrl: url })).rejects.toThrow(
      /is in use \(a service has it open\): stop the central first/,
    );
    await service.close();
    await expect(migrateCentral({ from: standalone, databaseUrl: url })).rejects.toThrow(
      /not a central \(sync_meta has no epoch\)/,
    );
    await expect(
      migrateCentral({ from: tempDataDir('nothing'), databaseUrl: url }),
    ).rejects.toThrow(/holds no app.sqlite/);

    const { dataDir } = await syncedCentral();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`CREATE TABLE other_app (id int)`);
    await client.end();
    await expect(migrateCentral({ from: dataDir, databaseUrl: url })).rejects.toThrow(
      /not empty \(it has tables such as other_app/,
    );
  });
});
