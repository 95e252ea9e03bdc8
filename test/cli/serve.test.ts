import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The project root (this file is test/cli/serve.test.ts). */
const ROOT = resolve(import.meta.dirname, '../..');
const READY_TIMEOUT_MS = 20_000;
const EXIT_TIMEOUT_MS = 5_000;

interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children: ChildProcess[] = [];

function startCli(args: string[]): Cli {
  const env = { ...process.env };
  // The service reads these; the tests pass everything as flags.
  for (const name of ['HOST', 'PORT', 'DATA_DIR', 'SEED']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/service/cli.ts', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Resolves with the match once stdout has a line matching `pattern`; fails on exit or timeout. */
function waitForStdout(cli: Cli, pattern: RegExp, timeoutMs = READY_TIMEOUT_MS) {
  return new Promise<RegExpMatchArray>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new Error(
          `no ${pattern} within ${timeoutMs} ms\nstdout: ${cli.stdout()}\nstderr: ${cli.stderr()}`,
        ),
      );
    }, timeoutMs);
    const check = () => {
      const match = pattern.exec(cli.stdout());
      if (match) {
        cleanup();
        resolvePromise(match);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(
        new Error(
          `exited with ${code} before ${pattern}\nstdout: ${cli.stdout()}\nstderr: ${cli.stderr()}`,
        ),
      );
    };
    const cleanup = () => {
      clearTimeout(timer);
      cli.child.stdout!.off('data', check);
      cli.child.off('exit', onExit);
    };
    cli.child.stdout!.on('data', check);
    cli.child.on('exit', onExit);
    check();
  });
}

/** The exit of `cli`, or a failure after `timeoutMs`. */
function exitWithin(cli: Cli, timeoutMs = EXIT_TIMEOUT_MS) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `still running after ${timeoutMs} ms\nstdout: ${cli.stdout()}\nstderr: ${cli.stderr()}`,
          ),
        ),
      timeoutMs,
    );
  });
  return Promise.race([cli.exited, timeout]).finally(() => clearTimeout(timer));
}

let dataRoot: string;
beforeAll(() => {
  dataRoot = mkdtempSync(join(tmpdir(), 'fid-cli-'));
});
afterAll(() => {
  // Only the processes these tests started, by their own handle.
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  rmSync(dataRoot, { recursive: true, force: true });
});

const LISTENING = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/m;

async function signIn(url: string, email: string, password: string) {
  const response = await fetch(`${url}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { access_token: string } };
  return body.data.access_token;
}

async function facilities(url: string, token: string) {
  const response = await fetch(`${url}/api/user-facilities/v1/facilities`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { message: string; data: { name: string }[] };
  expect(body.message).toBe('Facilities fetched');
  return body.data;
}

describe('npm run serve (src/main/service/cli.ts)', () => {
  it('--seed demo --port 0: prints the URL, serves over real HTTP, closes cleanly on SIGTERM; a restart keeps data and tokens', async () => {
    const dataDir = join(dataRoot, 'demo');
    const started = performance.now();
    const cli = startCli(['--seed', 'demo', '--port', '0', '--data-dir', dataDir]);
    const [, url, port] = await waitForStdout(cli, LISTENING);
    const readyMs = Math.round(performance.now() - started);
    console.log(`service start-to-ready: ${readyMs} ms`);
    expect(Number(port)).toBeGreaterThan(0);
    expect(Number(port)).not.toBe(8787);
    // The demo sign-in is printed while it is unchanged, before the ready line.
    expect(cli.stdout()).toMatch(
      /demo sign-in: demo@example\.com \/ demo-password\n.*listening on/,
    );

    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });

    const token = await signIn(url!, 'demo@example.com', 'demo-password');
    const first = await facilities(url!, token);
    expect(first.length).toBeGreaterThanOrEqual(2);

    // The data dir holds the database and a private signing secret.
    expect(existsSync(join(dataDir, 'app.sqlite'))).toBe(true);
    expect(statSync(join(dataDir, 'jwt-secret.key')).mode & 0o777).toBe(0o600);

    cli.child.kill('SIGTERM');
    const exit = await exitWithin(cli);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(cli.stdout()).toContain('SIGTERM received, closing');
    expect(cli.stderr()).toBe('');

    // Restart on the same data dir without --seed: same data, and the old token still verifies.
    const again = startCli(['--port', '0', '--data-dir', dataDir]);
    const [, url2] = await waitForStdout(again, LISTENING);
    expect(await facilities(url2!, token)).toEqual(first);
    again.child.kill('SIGINT');
    expect(await exitWithin(again)).toEqual({ code: 0, signal: null });
    expect(again.stdout()).toContain('SIGINT received, closing');
  }, 60_000);
});

// Each of these starts its own process and waits for it to fail: run them side by side.
describe.concurrent('npm run serve: start-up failures', () => {
  it('a seed bundle with a dangling reference exits 1 and names the entry on stderr', async ({
    expect,
  }) => {
    const dataDir = join(dataRoot, 'dangling');
    const seedFile = join(dataRoot, 'dangling.json');
    writeFileSync(
      seedFile,
      JSON.stringify({
        organizations: [{ id: '0a000000-0000-4000-8000-000000000001', name: 'Org One' }],
        facilities: [
          {
            id: '0f000000-0000-4000-8000-000000000001',
            organization_id: '0a000000-0000-4000-8000-000000000099',
            name: 'Alpha DC',
            external_facility_code: 'ALP',
          },
        ],
      }),
    );
    const cli = startCli(['--seed', seedFile, '--port', '0', '--data-dir', dataDir]);
    const exit = await exitWithin(cli, READY_TIMEOUT_MS);
    expect(exit.code).toBe(1);
    expect(cli.stderr()).toContain('facilities[0].organization_id');
    expect(cli.stdout()).not.toContain('listening on');
  }, 30_000);

  it('a missing or malformed seed file exits 1 with a clear message', async ({ expect }) => {
    const missing = startCli([
      '--seed',
      join(dataRoot, 'no-such-file.json'),
      '--port',
      '0',
      '--data-dir',
      join(dataRoot, 'missing'),
    ]);
    const malformedFile = join(dataRoot, 'malformed.json');
    writeFileSync(malformedFile, '{"organizations": [');
    const malformed = startCli([
      '--seed',
      malformedFile,
      '--port',
      '0',
      '--data-dir',
      join(dataRoot, 'malformed'),
    ]);
    expect((await exitWithin(missing, READY_TIMEOUT_MS)).code).toBe(1);
    expect(missing.stderr()).toContain('Cannot read seed bundle');
    expect(missing.stderr()).toContain('no-such-file.json');
    expect((await exitWithin(malformed, READY_TIMEOUT_MS)).code).toBe(1);
    expect(malformed.stderr()).toContain('Cannot read seed bundle');
  }, 30_000);

  it('--port abc exits 2 with the usage text', async ({ expect }) => {
    const cli = startCli(['--port', 'abc', '--data-dir', join(dataRoot, 'usage')]);
    const exit = await exitWithin(cli, READY_TIMEOUT_MS);
    expect(exit.code).toBe(2);
    expect(cli.stderr()).toContain('--port');
    expect(cli.stderr()).toContain('usage: npm run serve');
    expect(cli.stdout()).not.toContain('listening on');
  }, 30_000);

  it('an unknown flag exits 2', async ({ expect }) => {
    const cli = startCli(['--no-such-flag']);
    expect((await exitWithin(cli, READY_TIMEOUT_MS)).code).toBe(2);
    expect(cli.stderr()).toContain('usage: npm run serve');
  }, 30_000);

  it('a port already in use exits 1 with a message', async ({ expect }) => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const { port } = blocker.address() as AddressInfo;
    try {
      const cli = startCli(['--port', String(port), '--data-dir', join(dataRoot, 'in-use')]);
      const exit = await exitWithin(cli, READY_TIMEOUT_MS);
      expect(exit.code).toBe(1);
      expect(cli.stderr()).toMatch(/failed to start: .*EADDRINUSE/);
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  }, 30_000);
});
