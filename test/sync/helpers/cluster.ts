import { mkdtempSync, rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSeedBundle } from '../../../src/server/seed/seed';
import {
  startService,
  type RunningService,
  type StartOptions,
} from '../../../src/server/http/server';
import type { SyncClientOptions } from '../../../src/server/sync/client';
import type { SyncConflict } from '../../../src/shared/sync';
import type { SeedDevice } from '../../../src/shared/sync-seed';
import type { Engine } from '../../../src/server/db/engine';
import { cloneTemplate } from '../../helpers/postgres/databases';
import { TEST_PASSWORD_COST } from '../../helpers/service';
import { startTcpProxy } from './tcp-proxy';

export const RENO = '0f000000-0000-4000-8000-000000000001';
export const COLUMBUS = '0f000000-0000-4000-8000-000000000002';
export const SAVANNAH = '0f000000-0000-4000-8000-000000000003';
export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password';

/** Devices of the demo's facilities; W1 and W2 both serve Reno, W3 serves Savannah. */
export const DEVICES = {
  w1: {
    id: 'd1000000-0000-4000-8000-000000000001',
    name: 'Reno packing 1',
    facility_ids: [RENO],
    secret: 'w1-secret-w1-secret',
  },
  w2: {
    id: 'd1000000-0000-4000-8000-000000000002',
    name: 'Reno packing 2',
    facility_ids: [RENO],
    secret: 'w2-secret-w2-secret',
  },
  w3: {
    id: 'd1000000-0000-4000-8000-000000000003',
    name: 'Savannah 1',
    facility_ids: [SAVANNAH],
    secret: 'w3-secret-w3-secret',
  },
} satisfies Record<string, SeedDevice>;

/**
 * Devices a test seeds itself (startCentral does not): one serving two facilities of the same
 * organisation, and one serving Columbus alone.
 */
export const OTHER_DEVICES = {
  renoColumbus: {
    id: 'd1000000-0000-4000-8000-000000000004',
    name: 'Reno and Columbus',
    facility_ids: [RENO, COLUMBUS],
    secret: 'w4-secret-w4-secret',
  },
  columbus: {
    id: 'd1000000-0000-4000-8000-000000000005',
    name: 'Columbus 1',
    facility_ids: [COLUMBUS],
    secret: 'w5-secret-w5-secret',
  },
} satisfies Record<string, SeedDevice>;

const dirs: string[] = [];
export function tempDataDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `sync-${name}-`));
  dirs.push(dir);
  return dir;
}
export function removeTempDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * What a test file starts: the returned list is closed (last first) after each test, and the
 * temp data dirs are removed after the file.
 */
export function closedAfterEach(): { close(): Promise<void> }[] {
  const running: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const service of running.splice(0).reverse()) await service.close();
  });
  afterAll(removeTempDirs);
  return running;
}

/**
 * Starts the parts of a cluster for one test, each added to `running` (from closedAfterEach) so it
 * is closed after the test: the central, a TCP proxy in front of it (to cut a workstation's
 * network), and workstations, each synced until quiet before it is handed back.
 */
export function starters(running: { close(): Promise<void> }[], engine: Engine = 'sqlite') {
  const started = <T extends { close(): Promise<void> }>(part: T) => {
    running.push(part);
    return part;
  };
  return {
    central: async (options?: Omit<CentralOptions, 'engine'>) =>
      started(await startCentral({ ...options, engine })),
    proxyTo: async (central: RunningService) =>
      started(await startTcpProxy({ targetPort: central.port })),
    async workstation(...args: Parameters<typeof startWorkstation>) {
      const workstation = started(await startWorkstation(...args));
      await syncUntilQuiet(workstation);
      return workstation;
    },
  };
}

/** Points two of the demo's Reno connections at a loopback receiver: one sent by the central, one by the workstation. */
export const EDI_CONNECTION = '0c000000-0000-4000-8000-000000000001';
export const FEED_CONNECTION = '0c000000-0000-4000-8000-000000000002';
export async function routeConnectionsTo(central: RunningService, receiverUrl: string) {
  for (const [id, sender] of [
    [EDI_CONNECTION, 'central'],
    [FEED_CONNECTION, 'workstation'],
  ] as const) {
    await central.context.db
      .updateTable('connections')
      .set({
        transport_json: JSON.stringify({ type: 'http', url: `${receiverUrl}/${id}` }),
        sender,
      })
      .where('id', '=', id)
      .execute();
  }
}

const base = (dataDir: string): StartOptions => ({
  host: '127.0.0.1',
  port: 0,
  dataDir,
  seed: null,
  uiDir: null,
  outboxDrain: false,
});

export interface CentralOptions {
  dataDir?: string;
  seed?: boolean;
  outboxDrain?: StartOptions['outboxDrain'];
  /** How long close() waits for in-flight requests, then the database (StartOptions). */
  closeStepMs?: number;
  /**
   * The engine (SQLite by default). On PostgreSQL the central runs on a database cloned from the
   * tests' template (test/helpers/postgres) for it alone, dropped when the central closes.
   */
  engine?: Engine;
}

/** A central started by startCentral; `databaseUrl` is its clone's on PostgreSQL (for a second central on it). */
export type TestCentral = RunningService & { databaseUrl?: string };

/** What a central keeps across a restart: its data dir, and on PostgreSQL its clone and the service's own close. */
interface KeptData {
  dataDir: string;
  databaseUrl: string | null;
  stop(): Promise<void>;
  drop(): Promise<void>;
}
const keptData = new WeakMap<RunningService, KeptData>();

/**
 * The one starter of an in-process central for the sync tests: the demo workspace and the test
 * devices, on either engine.
 */
export async function startCentral(options: CentralOptions = {}): Promise<TestCentral> {
  const { engine = 'sqlite', ...rest } = options;
  const dataDir = rest.dataDir ?? tempDataDir('central');
  if (engine === 'sqlite') return keeping(await startOn(rest, dataDir, null), dataDir, null);
  const postgres = inject('postgres');
  if (!postgres) throw new Error('no PostgreSQL for tests (see test/helpers/postgres)');
  const cloned = await cloneTemplate(postgres);
  let central: RunningService;
  try {
    central = await startOn(rest, dataDir, cloned.url);
  } catch (error) {
    await cloned.drop();
    throw error;
  }
  return keeping(central, dataDir, cloned);
}

/** The central with a close that also drops its clone, and what restartCentral needs. */
function keeping(
  central: RunningService,
  dataDir: string,
  cloned: { url: string; drop(): Promise<void> } | null,
): TestCentral {
  const stop = central.close.bind(central);
  const drop = cloned ? () => cloned.drop() : async () => {};
  keptData.set(central, { dataDir, databaseUrl: cloned?.url ?? null, stop, drop });
  return Object.assign(central, {
    ...(cloned ? { databaseUrl: cloned.url } : {}),
    async close() {
      await stop();
      await drop();
    },
  });
}

/**
 * Stops a central started by startCentral and starts a new one (a new service context) on the
 * same data: its data dir, or its PostgreSQL clone. No seed on the restart, as in production; the
 * returned central's close drops the clone.
 */
export async function restartCentral(central: TestCentral): Promise<TestCentral> {
  const kept = keptData.get(central);
  if (!kept) throw new Error('restartCentral takes a central started by startCentral');
  keptData.delete(central);
  await kept.stop();
  let restarted: RunningService;
  try {
    restarted = await startService(
      { ...base(kept.dataDir), databaseUrl: kept.databaseUrl, sync: { role: 'central' } },
      { passwordCost: TEST_PASSWORD_COST },
    );
  } catch (error) {
    await kept.drop();
    throw error;
  }
  return keeping(
    restarted,
    kept.dataDir,
    kept.databaseUrl ? { url: kept.databaseUrl, drop: kept.drop } : null,
  );
}

async function startOn(
  options: Omit<CentralOptions, 'engine'>,
  dataDir: string,
  databaseUrl: string | null,
): Promise<RunningService> {
  const central = await startService(
    {
      ...base(dataDir),
      databaseUrl,
      seed: options.seed === false ? null : 'demo',
      sync: { role: 'central' },
      outboxDrain: options.outboxDrain ?? false,
      ...(options.closeStepMs ? { closeStepMs: options.closeStepMs } : {}),
    },
    { passwordCost: TEST_PASSWORD_COST },
  );
  await seedInto(central, { devices: Object.values(DEVICES) });
  return central;
}

/** Imports a seed bundle (users, devices, connections…) into a running service, at the tests' password cost. */
export async function seedInto(service: RunningService, bundle: unknown): Promise<void> {
  await importSeedBundle(service.context.db, bundle, { passwordCost: TEST_PASSWORD_COST });
}

/**
 * One central for all of a file's tests, on `engine`: started before them and handed to `started`
 * (to keep it and set it up), closed after them with the temp data dirs.
 */
export function centralForAllTests(
  started: (central: TestCentral) => void | Promise<void>,
  engine: Engine = 'sqlite',
): void {
  let central: TestCentral | undefined;
  beforeAll(async () => {
    central = await startCentral({ engine });
    await started(central);
  });
  afterAll(async () => {
    await central?.close();
    removeTempDirs();
  });
}

/** An in-process workstation syncing with `centralUrl` (a proxy in front of it, in most tests). */
export async function startWorkstation(
  centralUrl: string,
  device: SeedDevice,
  options: {
    dataDir?: string;
    client?: Partial<SyncClientOptions>;
    outboxDrain?: StartOptions['outboxDrain'];
  } = {},
): Promise<RunningService> {
  return startService(
    {
      ...base(options.dataDir ?? tempDataDir(device.name.replace(/\W+/g, '-'))),
      outboxDrain: options.outboxDrain ?? false,
      sync: {
        role: 'workstation',
        centralUrl,
        deviceId: device.id,
        deviceSecret: device.secret,
        client: {
          intervalMs: 100,
          maxBackoffMs: 400,
          requestTimeoutMs: 5_000,
          onError: () => {},
          ...options.client,
        },
      },
    },
    { passwordCost: TEST_PASSWORD_COST },
  );
}

export interface ApiAnswer {
  status: number;
  // JSON answers of several shapes; each test reads the fields it asserts.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** One HTTP call to a service (in-process or a real process), as a clerk's client would make it. */
export async function callApi(
  url: string,
  auth: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiAnswer> {
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = auth;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Signs in through the API; the bearer header value. Throws with the answer when refused. */
export async function signInAt(
  url: string,
  email = DEMO_EMAIL,
  password = DEMO_PASSWORD,
): Promise<string> {
  const answer = await callApi(url, null, 'POST', '/api/auth/token', { email, password });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(answer.body)}`);
  return `Bearer ${answer.body.data?.access_token ?? answer.body.access_token}`;
}

export const signIn = (service: RunningService, email?: string, password?: string) =>
  signInAt(service.url, email, password);

export const api = (
  service: RunningService,
  auth: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: ApiBody }> => callApi(service.url, auth, method, path, body);

/** What the sync tests read from JSON answers (each test asserts the parts it needs). */
export interface ApiBody {
  message: string;
  error: { code: string; expected_seq?: number; last_seq?: number };
  data: { items: SyncConflict[]; total_count: number } & SyncConflict;
  role: string;
  online: boolean;
  pending_mutations: number;
  conflicts: number;
  last_pull_at: string | null;
  last_error: string | null;
  last_seq: number;
  applied: number;
  duplicates: number;
  rejected: number;
}

/** The order with this picksheet code on a service (throws when there is none). */
export const orderByCode = (service: RunningService, code: string) =>
  service.context.db
    .selectFrom('orders')
    .selectAll()
    .where('picksheet_code', '=', code)
    .executeTakeFirstOrThrow();

/** Polls `check` until it returns a truthy value (or throws after `timeoutMs`). */
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > until)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** How many of a workstation's mutations the central has not acknowledged yet. */
export async function pendingMutations(workstation: RunningService): Promise<number> {
  const row = await workstation.context.db
    .selectFrom('sync_mutations')
    .innerJoin('sync_state', (j) => j.onTrue())
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .whereRef('sync_mutations.seq', '>', 'sync_state.acked_seq')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Runs sync rounds on a workstation until nothing is pending and a pull brought nothing new. */
export async function syncUntilQuiet(workstation: RunningService): Promise<void> {
  const client = workstation.context.sync!.client!;
  for (let i = 0; i < 50; i += 1) {
    await client.syncNow();
    if ((await pendingMutations(workstation)) === 0 && client.online && client.lastError === null)
      return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`sync did not become quiet: ${String(client.lastError)}`);
}
