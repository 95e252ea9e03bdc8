import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { test as base } from '@playwright/test';
import { BUNDLE, ROOT } from '../scripts/service-bundle.mjs';
import { createSpecDatabase, E2E_DATABASE_URL } from './postgres';

// Each spec file gets its own demo service on a free port and its own data dir, so no spec
// depends on what another one did or on running first. The service runs from the built bundle
// (out/service/cli.js, rebuilt by global-setup.ts when older than its sources): it starts about a
// second sooner than the CLI from source through tsx, once per spec file.

/**
 * Where the per-spec data dirs go. E2E_DATA_ROOT keeps two runs on one machine from wiping each
 * other's data; the dirs stay after a run, for a look at a failure, until the next run wipes them.
 */
export const DATA_ROOT = resolve(process.env.E2E_DATA_ROOT ?? '.tmp/e2e-data');

/** A start under load (Chromium and another worker's service on two cores) takes a few seconds. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
/** The service reads these (config.ts); a developer's shell must not leak into the tests. */
const SERVICE_ENV_NAMES = [
  'HOST',
  'PORT',
  'DATA_DIR',
  'SEED',
  'ALLOWED_HOST',
  'ROLE',
  'CENTRAL',
  'DEVICE_ID',
  'DEVICE_SECRET',
  'DATABASE_URL',
  'POOL_SIZE',
];

export interface SpecService {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Everything the service printed, stdout and stderr interleaved. */
  output(): string;
  /** SIGTERM and wait for the exit; SIGKILL when it takes longer than 10 s. */
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

/**
 * The demo workspace on 127.0.0.1 (the service's default host), a port the OS picks and a new
 * data dir named after `name`. Resolves once `/api/health` answers 200.
 */
async function startDemoService(name: string): Promise<SpecService> {
  mkdirSync(DATA_ROOT, { recursive: true });
  // A worker that restarts after a failure starts the file's service again, on a new dir.
  const dataDir = mkdtempSync(join(DATA_ROOT, `${name}-`));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const envName of SERVICE_ENV_NAMES) delete env[envName];
  const database = E2E_DATABASE_URL ? await createSpecDatabase(E2E_DATABASE_URL, name) : null;
  const child = spawn(
    process.execPath,
    [
      BUNDLE,
      ...['--seed', 'demo', '--port', '0', '--data-dir', dataDir],
      ...(database ? ['--database-url', database.url] : []),
    ],
    // The IPC channel makes the service close itself when this worker dies, however it dies
    // (cli.ts listens for 'disconnect'). It is the only process: no npx or shell in between.
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  child.channel?.unref();
  let text = '';
  const listening = new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name}: no "listening on" within ${START_TIMEOUT_MS} ms\n${text}`)),
      START_TIMEOUT_MS,
    );
    const read = (chunk: string) => {
      text += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    };
    child.stdout!.setEncoding('utf8').on('data', read);
    child.stderr!.setEncoding('utf8').on('data', read);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`${name}: the service exited (${signal ?? code}) before listening\n${text}`),
      );
    });
  });

  const stop = async () => {
    const exit = exited(child);
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exit;
    clearTimeout(timer);
    await database?.drop();
  };

  try {
    const url = await listening;
    const health = await fetch(`${url}/api/health`);
    if (health.status !== 200) throw new Error(`${name}: /api/health answered ${health.status}`);
    return { url, output: () => text, stop };
  } catch (error) {
    child.kill('SIGKILL');
    await exited(child);
    await database?.drop();
    throw error;
  }
}

/** The worker's service and the spec file it belongs to. */
interface SpecServiceSlot {
  current?: { file: string; service: SpecService };
}

/**
 * `test` with `baseURL` pointing at the spec file's own demo service. A worker runs files one
 * after another: the first test (or hook) of a new file stops the previous file's service and
 * starts a fresh one; the worker's teardown stops the last.
 */
export const test = base.extend<{ specService: SpecService }, { specServiceSlot: SpecServiceSlot }>(
  {
    specServiceSlot: [
      // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        const slot: SpecServiceSlot = {};
        await use(slot);
        await slot.current?.service.stop();
      },
      { scope: 'worker' },
    ],
    specService: [
      async ({ specServiceSlot: slot }, use, testInfo) => {
        if (slot.current?.file !== testInfo.file) {
          const previous = slot.current;
          slot.current = undefined;
          await previous?.service.stop();
          const name = basename(testInfo.file).replace(/\.spec\.ts$/, '');
          slot.current = { file: testInfo.file, service: await startDemoService(name) };
        }
        const { service } = slot.current;
        await use(service);
        // What the shared web server used to print goes with a failure.
        if (testInfo.status !== testInfo.expectedStatus) {
          await testInfo.attach('service output', {
            body: service.output(),
            contentType: 'text/plain',
          });
        }
      },
      { timeout: START_TIMEOUT_MS },
    ],
    baseURL: async ({ specService }, use) => {
      await use(specService.url);
    },
  },
);

export { expect } from '@playwright/test';

/** Run once before the workers start (global-setup.ts). */
export function wipeDataRoot(): void {
  rmSync(DATA_ROOT, { recursive: true, force: true });
  mkdirSync(DATA_ROOT, { recursive: true });
}
