/**
 * Issue 19, "Faults a workstation meets": a full disk once killed the service (an uncaught
 * SQLITE_FULL from the WAL checkpoint timer) and creates answered 500 without a word of the disk.
 * Now reads go on, writes answer 507 naming the data dir, health says so, and writes work again
 * once space is freed. `PRAGMA max_page_count` makes SQLite answer SQLITE_FULL without a real disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  reportQuietly,
  startOutboxDrainer,
} from '../../src/server/inventory/transmission/outbox-drainer';
import { checkpointQuietly } from '../../src/server/db/database';
import { newStorageStatus, storageStatusOf } from '../../src/server/db/storage-status';
import { startService } from '../../src/server/http/server';
import type { ChangeCapture } from '../../src/server/sync/capture';
import { startSyncClient } from '../../src/server/sync/client';
import { ordersBundle } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { createBody } from '../orders/write-support';

const DISK_FULL_MESSAGE =
  'The disk holding the data is full: free space on /tmp/fulfillment-test-data and try again';

let svc: TestService;
let token: string;
beforeEach(async () => {
  svc = await createTestService({ seed: ordersBundle() });
  token = await svc.login('admin@a.test');
});
afterEach(async () => {
  await svc.close();
});

const fillDisk = async () => {
  const pages = svc.database.sqlite.pragma('page_count', { simple: true }) as number;
  svc.database.sqlite.pragma(`max_page_count = ${pages}`);
};
const freeSpace = () => svc.database.sqlite.pragma('max_page_count = 1000000');

let serial = 0;
const create = () => {
  serial += 1;
  return svc.app.inject({
    method: 'POST',
    url: '/api/v1/orders/create',
    headers: { authorization: token },
    payload: createBody({ po_number: `PO-DF-${serial}`, picksheet_code: `PS-DF-${serial}` }),
  });
};
const health = () => svc.app.inject({ method: 'GET', url: '/api/health' });

/** Creates orders until the database has no page left for one; returns the refusal. */
async function createUntilRefused() {
  for (let i = 0; i < 300; i += 1) {
    const response = await create();
    if (response.statusCode !== 201 && response.statusCode !== 200) return response;
  }
  throw new Error('the database never filled up');
}

describe('a full disk refuses writes clearly and keeps serving reads', () => {
  it('a create answers 507 in the envelope, naming the data dir; reads and health go on', async () => {
    await fillDisk();
    const refused = await createUntilRefused();
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toEqual({
      message: DISK_FULL_MESSAGE,
      error: { code: 'INSUFFICIENT_STORAGE' },
    });

    const list = await svc.app.inject({
      method: 'GET',
      url: '/api/v1/orders',
      headers: { authorization: token },
    });
    expect(list.statusCode).toBe(200);

    const unhealthy = await health();
    expect(unhealthy.statusCode).toBe(200);
    expect(unhealthy.json()).toMatchObject({
      status: 'disk_full',
      message: 'The disk holding the data is full: writes are refused until space is freed',
    });
  });

  it('once space is freed the next write succeeds and health is ok again, without a restart', async () => {
    await fillDisk();
    expect((await createUntilRefused()).statusCode).toBe(507);
    freeSpace();
    expect((await create()).statusCode).toBe(201);
    expect((await health()).json()).toMatchObject({ status: 'ok' });
  });

  it('50 parallel creates on a full disk all answer 507, none 500', async () => {
    await fillDisk();
    await createUntilRefused();
    const answers = await Promise.all(Array.from({ length: 50 }, create));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(507));
  });

  it('a read-only transaction that commits does not clear the fault; a committed write does', async () => {
    await fillDisk();
    await createUntilRefused();
    const status = storageStatusOf(svc.ctx.db);
    await svc.ctx.db.transaction().execute((trx) => sql`select 1`.execute(trx));
    expect(status.fullSince).not.toBeNull();
    freeSpace();
    await svc.ctx.db.transaction().execute(async (trx) => {
      await sql`create table disk_probe (b blob)`.execute(trx);
      await sql`insert into disk_probe values (zeroblob(65536))`.execute(trx);
    });
    expect(status.fullSince).toBeNull();
  });

  it('an in-place update that succeeds on a full disk does not clear the fault; growing does', async () => {
    await fillDisk();
    expect((await createUntilRefused()).statusCode).toBe(507);
    // Needs no new page, so it succeeds while new records cannot: alone and in a transaction.
    await sql`update organizations set name = name`.execute(svc.ctx.db);
    await svc.ctx.db
      .transaction()
      .execute((trx) => sql`update organizations set name = name`.execute(trx));
    expect((await health()).json()).toMatchObject({ status: 'disk_full' });
    expect((await create()).statusCode).toBe(507);
    expect((await health()).json()).toMatchObject({ status: 'disk_full' });

    freeSpace();
    expect((await create()).statusCode).toBe(201);
    expect((await health()).json()).toMatchObject({ status: 'ok' });
  });
});

describe('background work never lets an error escape', () => {
  it('a checkpoint that fails with SQLITE_FULL is noted and logged once, not thrown', () => {
    const storage = newStorageStatus();
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const sqlite = {
      open: true,
      pragma: () => {
        throw full;
      },
    } as unknown as Parameters<typeof checkpointQuietly>[0];
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => checkpointQuietly(sqlite, storage)).not.toThrow();
      expect(() => checkpointQuietly(sqlite, storage)).not.toThrow();
      expect(storage.fullSince).toBeInstanceOf(Date);
      expect(log).toHaveBeenCalledTimes(1);
    } finally {
      log.mockRestore();
    }
  });

  it('the outbox drainer survives a pass that throws at once and a reporter that throws', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const drainer = startOutboxDrainer(
      () => {
        calls += 1;
        throw new Error(`pass ${calls} failed`);
      },
      {
        firstPassMs: 60_000,
        onError: (error) => {
          errors.push(error);
          throw new Error('the log is gone');
        },
      },
    );
    await drainer.drainNow();
    await drainer.drainNow();
    await drainer.stop();
    expect(errors.map((e) => (e as Error).message)).toEqual(['pass 1 failed', 'pass 2 failed']);
  });

  it('the sync loop survives a round that fails and a reporter that throws; a full disk is noted', async () => {
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const capture: ChangeCapture = {
      paused: (apply) => apply(),
      foldLeftovers: () => {
        throw full;
      },
      nextSeq: () => 1,
    };
    const reported: unknown[] = [];
    const client = startSyncClient(svc.ctx, svc.database.sqlite, capture, {
      centralUrl: 'http://127.0.0.1:9',
      deviceId: 'dev-1',
      deviceSecret: 'secret',
      intervalMs: 60_000,
      onError: (error) => {
        reported.push(error);
        throw new Error('the log is gone');
      },
    });
    try {
      await client.syncNow();
      expect(client.lastError).toBeInstanceOf(Error);
      expect(reported.length).toBeGreaterThanOrEqual(1);
      expect(storageStatusOf(svc.ctx.db).fullSince).toBeInstanceOf(Date);
    } finally {
      await client.stop();
    }
  });

  it('reportQuietly swallows a reporter that throws', () => {
    expect(() =>
      reportQuietly(() => {
        throw new Error('no log');
      }, new Error('x')),
    ).not.toThrow();
  });

  it('a running service on a full disk keeps its timers alive past a checkpoint and a drain pass', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'disk-full-'));
    const service = await startService(
      { host: '127.0.0.1', port: 0, dataDir, uiDir: null, seed: 'demo' },
      {},
    );
    try {
      const pages = await sql<{ page_count: number }>`PRAGMA page_count`.execute(
        service.context.db,
      );
      await sql
        .raw(`PRAGMA max_page_count = ${pages.rows[0]?.page_count ?? 0}`)
        .execute(service.context.db);
      // The checkpoint runs every 2 s and the drainer's first pass after 1 s: both run while full.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const answer = await fetch(`${service.url}/api/health`);
      expect(answer.status).toBe(200);
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
