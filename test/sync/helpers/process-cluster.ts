import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { SeedDevice } from '../../../src/shared/sync-seed';
import { callApi, DEVICES, eventually, tempDataDir } from './cluster';
import { poEdit } from './convergence-model';
import { startServiceProcess, type ServiceProcess } from './service-process';

/** Real processes need more patience than in-process services: tsx starts, backoff, hashing. */
export const POLL_MS = 20_000;

const DEMO_WORKSPACE = resolve(import.meta.dirname, '../../../resources/demo-workspace.json');

/** The demo workspace plus the test devices, as a seed bundle file in a temp dir; its path. */
export function writeCentralSeed(): string {
  const bundle = JSON.parse(readFileSync(DEMO_WORKSPACE, 'utf8')) as Record<string, unknown>;
  const file = join(tempDataDir('seed'), 'central-seed.json');
  writeFileSync(file, JSON.stringify({ ...bundle, devices: Object.values(DEVICES) }));
  return file;
}

/**
 * A central process. `seedFile` is left out on restarts that must keep the central's own edits
 * (a re-seed would put the bundle's orders back); `port` pins it so proxies need no retarget.
 */
export function startCentralProcess(options: {
  dataDir: string;
  seedFile?: string;
  port?: number;
  env?: NodeJS.ProcessEnv;
  /** `--database-url …` for a central on PostgreSQL (CentralStore.args). */
  args?: string[];
}): Promise<ServiceProcess> {
  const args = ['--role', 'central', ...(options.args ?? [])];
  if (options.seedFile) args.push('--seed', options.seedFile);
  if (options.port !== undefined) args.push('--port', String(options.port));
  return startServiceProcess({
    name: 'central',
    dataDir: options.dataDir,
    args,
    env: { SYNC_CRASH_AT: '', ...options.env },
  });
}

/** A workstation process syncing every 100 ms with `centralUrl` (its proxy). */
export function startWorkstationProcess(options: {
  name: string;
  device: SeedDevice;
  centralUrl: string;
  dataDir: string;
  env?: NodeJS.ProcessEnv;
}): Promise<ServiceProcess> {
  const { device } = options;
  return startServiceProcess({
    name: options.name,
    dataDir: options.dataDir,
    args: [
      '--central',
      options.centralUrl,
      '--device-id',
      device.id,
      '--device-secret',
      device.secret,
    ],
    env: { SYNC_INTERVAL_MS: '100', SYNC_CRASH_AT: '', ...options.env },
  });
}

export interface SyncStatusBody {
  role: string;
  online: boolean;
  pending_mutations: number;
  last_push_at: string | null;
  last_pull_at: string | null;
  conflicts: number;
  last_error: string | null;
}

export async function syncStatusOf(url: string, auth: string): Promise<SyncStatusBody> {
  const answer = await callApi(url, auth, 'GET', '/api/sync/v1/status');
  if (answer.status !== 200) throw new Error(`status failed: ${JSON.stringify(answer.body)}`);
  return answer.body as SyncStatusBody;
}

/** Polls the status until `until` holds; the last status. */
export function statusWhen(
  url: string,
  auth: string,
  until: (status: SyncStatusBody) => boolean,
  what: string,
): Promise<SyncStatusBody> {
  return eventually(
    async () => {
      const status = await syncStatusOf(url, auth);
      // Thrown, so that a timeout shows the last status.
      if (!until(status)) throw new Error(`status ${JSON.stringify(status)}`);
      return status;
    },
    POLL_MS,
    what,
  );
}

/** Changes a Reno order's PO number through the workstation's API (one local mutation). */
export async function editPo(url: string, auth: string, picksheet: string, po: string) {
  const answer = await callApi(url, auth, 'PUT', '/api/v1/orders', poEdit(picksheet, po));
  if (answer.status !== 200) throw new Error(`edit failed: ${JSON.stringify(answer.body)}`);
}

/**
 * Reads a service's database read-only while the service runs (WAL allows a concurrent reader).
 * Opened per read, so every read sees the latest commit.
 */
export function readDb<T>(dataDir: string, read: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, 'app.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

export function poNumberIn(dataDir: string, picksheet: string): string | null {
  return readDb(
    dataDir,
    (db) =>
      (
        db.prepare(`SELECT po_number FROM orders WHERE picksheet_code = ?`).get(picksheet) as
          { po_number: string | null } | undefined
      )?.po_number ?? null,
  );
}

/** Id and PO number of each order of `facilityId`, ordered by id. */
export function ordersOf(dataDir: string, facilityId: string): { id: string; po: string | null }[] {
  return readDb(
    dataDir,
    (db) =>
      db
        .prepare(`SELECT id, po_number AS po FROM orders WHERE facility_id = ? ORDER BY id`)
        .all(facilityId) as { id: string; po: string | null }[],
  );
}

/** The ids of the users a replica holds, in order. */
export function userIdsOf(dataDir: string): string[] {
  return readDb(dataDir, (db) =>
    (db.prepare(`SELECT id FROM users ORDER BY id`).all() as { id: string }[]).map((u) => u.id),
  );
}

/** Seqs of a device in a replica's sync_mutations (its own or the central's), with how many rows each. */
export function seqsIn(dataDir: string, clientId: string): { seq: number; n: number }[] {
  return readDb(
    dataDir,
    (db) =>
      db
        .prepare(
          `SELECT seq, COUNT(*) AS n FROM sync_mutations WHERE client_id = ? GROUP BY seq ORDER BY seq`,
        )
        .all(clientId) as { seq: number; n: number }[],
  );
}

/** The central's sync_clients.last_seq of a device (0 before its first push). */
export function centralLastSeq(dataDir: string, clientId: string): number {
  return readDb(
    dataDir,
    (db) =>
      (
        db.prepare(`SELECT last_seq FROM sync_clients WHERE client_id = ?`).get(clientId) as
          { last_seq: number } | undefined
      )?.last_seq ?? 0,
  );
}

/** A workstation's own mutations: the highest seq it has written (0 before the first). */
export function ownMaxSeq(dataDir: string, clientId: string): number {
  return readDb(
    dataDir,
    (db) =>
      (
        db
          .prepare(`SELECT COALESCE(MAX(seq), 0) AS seq FROM sync_mutations WHERE client_id = ?`)
          .get(clientId) as { seq: number }
      ).seq,
  );
}

/** What a workstation last stored as acknowledged by the central. */
export function ackedSeqOf(dataDir: string): number {
  return readDb(
    dataDir,
    (db) =>
      (db.prepare(`SELECT acked_seq FROM sync_state WHERE id = 1`).get() as { acked_seq: number })
        .acked_seq,
  );
}

/** Resolves once the process exited on its own (a crash point fired). */
export function exited(service: ServiceProcess, what: string): Promise<boolean> {
  return eventually(() => !service.running, POLL_MS, what);
}
