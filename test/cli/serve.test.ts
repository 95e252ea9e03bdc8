import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The project root (this file is test/cli/serve.test.ts). */
const ROOT = resolve(import.meta.dirname, '../..');
const BUNDLE = join(ROOT, 'out/service/cli.js');
// Generous: several helpers and test files may share two cores; these are no timing asserts.
const READY_TIMEOUT_MS = 45_000;
const EXIT_TIMEOUT_MS = 5_000;

interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children: ChildProcess[] = [];

function startProcess(command: string, args: string[], detached = false): Cli {
  const env = { ...process.env };
  // The service reads these; the tests pass everything as flags.
  for (const name of [
    'HOST',
    'PORT',
    'DATA_DIR',
    'SEED',
    'ALLOWED_HOST',
    'DATABASE_URL',
    'POOL_SIZE',
    'MONITORING_TOKEN',
  ])
    delete env[name];
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a left-over process can be found and cleaned up by group.
    detached,
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

/**
 * The service from source, as the e2e web server runs it; a rejection nobody handles ends it, so
 * a background loop that lets one escape fails these tests (issue 19, faults).
 */
function startCli(args: string[]): Cli {
  return startProcess(process.execPath, [
    '--unhandled-rejections=strict',
    '--import',
    'tsx',
    'src/server/http/cli.ts',
    ...args,
  ]);
}

/** `npm run serve -- ARGS`, as a user types it: npm, a shell, scripts/serve.mjs, the service. */
function startNpmServe(args: string[]): Cli {
  return startProcess('npm', ['run', 'serve', '--', ...args], true);
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
    // npm's group: whatever it started and left behind (only on a failed test).
    if (child.spawnargs[0] === 'npm' && child.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    }
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

describe('npm run serve (src/server/http/cli.ts)', () => {
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
  }, 60_000);

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
  }, 60_000);

  it('--port abc exits 2 with the usage text', async ({ expect }) => {
    const cli = startCli(['--port', 'abc', '--data-dir', join(dataRoot, 'usage')]);
    const exit = await exitWithin(cli, READY_TIMEOUT_MS);
    expect(exit.code).toBe(2);
    expect(cli.stderr()).toContain('--port');
    expect(cli.stderr()).toContain('usage: npm run serve');
    expect(cli.stdout()).not.toContain('listening on');
  }, 60_000);

  it('an unknown flag exits 2', async ({ expect }) => {
    const cli = startCli(['--no-such-flag']);
    expect((await exitWithin(cli, READY_TIMEOUT_MS)).code).toBe(2);
    expect(cli.stderr()).toContain('usage: npm run serve');
  }, 60_000);

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
  }, 60_000);
});

/** Every process on this machine: its parent, state and command line (Linux /proc). */
function processTable(): Map<number, { ppid: number; state: string; cmdline: string }> {
  const table = new Map<number, { ppid: number; state: string; cmdline: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
      const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      table.set(Number(entry), { ppid: Number(ppid), state, cmdline: cmdline.trim() });
    } catch {
      // exited while being read
    }
  }
  return table;
}

/** `pid` and everything it started, transitively. */
function processTree(pid: number): { pid: number; cmdline: string }[] {
  const table = processTable();
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, info] of table) if (info.ppid === tree[i]) tree.push(child);
  }
  return tree.map((p) => ({ pid: p, cmdline: table.get(p)?.cmdline ?? '' }));
}

/** Exited (a zombie that nobody reaps has exited too). */
function isGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

function portRefuses(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(false);
    });
    socket.once('error', () => done(true));
  });
}

async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not true after ${timeoutMs} ms: ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

const SERVE_SCRIPT = /^node scripts\/serve\.mjs\b/;
const BUNDLE_RUN = /out\/service\/cli\.js\b/;

describe.runIf(process.platform === 'linux')('npm run serve: signals and the built bundle', () => {
  it('SIGTERM to the npm process closes the port and leaves no process behind', async () => {
    const cli = startNpmServe(['--port', '0', '--data-dir', join(dataRoot, 'npm-sigterm')]);
    const [, , port] = await waitForStdout(cli, LISTENING, 60_000);
    const tree = processTree(cli.child.pid!);
    // npm, a shell, scripts/serve.mjs and the service: the test must signal the outer one.
    expect(
      tree.some((p) => SERVE_SCRIPT.test(p.cmdline)),
      JSON.stringify(tree),
    ).toBe(true);
    expect(tree.length).toBeGreaterThanOrEqual(3);

    process.kill(cli.child.pid!, 'SIGTERM');
    await waitUntil(`port ${port} closed`, () => portRefuses(Number(port)));
    await waitUntil(`no process left of ${JSON.stringify(tree)}`, () =>
      tree.every((p) => isGone(p.pid)),
    );
    expect(cli.stdout()).toContain('SIGTERM received, closing');
  }, 90_000);

  it('SIGINT to scripts/serve.mjs is passed on: the service closes cleanly and serve.mjs exits', async () => {
    const cli = startNpmServe(['--port', '0', '--data-dir', join(dataRoot, 'npm-sigint')]);
    const [, , port] = await waitForStdout(cli, LISTENING, 60_000);
    const tree = processTree(cli.child.pid!);
    const serveScript = tree.find((p) => SERVE_SCRIPT.test(p.cmdline));
    expect(serveScript, JSON.stringify(tree)).toBeDefined();

    process.kill(serveScript!.pid, 'SIGINT');
    await waitUntil(`port ${port} closed`, () => portRefuses(Number(port)));
    await waitUntil('serve.mjs and the service gone', () =>
      tree.filter((p) => p.pid !== cli.child.pid).every((p) => isGone(p.pid)),
    );
    expect(cli.stdout()).toContain('SIGINT received, closing');
    expect((await exitWithin(cli)).code).toBe(0);
  }, 90_000);

  it('scripts/serve.mjs killed outright (SIGKILL): the service notices and closes', async () => {
    const cli = startNpmServe(['--port', '0', '--data-dir', join(dataRoot, 'npm-sigkill')]);
    const [, , port] = await waitForStdout(cli, LISTENING, 60_000);
    const tree = processTree(cli.child.pid!);
    const serveScript = tree.find((p) => SERVE_SCRIPT.test(p.cmdline));
    const service = tree.find((p) => BUNDLE_RUN.test(p.cmdline) || /cli\.ts\b/.test(p.cmdline));
    expect(serveScript && service, JSON.stringify(tree)).toBeTruthy();

    process.kill(serveScript!.pid, 'SIGKILL');
    await waitUntil(`port ${port} closed`, () => portRefuses(Number(port)));
    await waitUntil('the service gone', () => isGone(service!.pid));
    expect(cli.stdout()).toContain('parent process gone, closing');
  }, 90_000);

  it('runs the built bundle, rebuilding it first when a source is newer', async () => {
    // Make the bundle older than every source: the next start must rebuild it.
    if (existsSync(BUNDLE)) utimesSync(BUNDLE, new Date(0), new Date(0));
    const dataDir = join(dataRoot, 'npm-bundle');
    const cli = startNpmServe(['--seed', 'demo', '--port', '0', '--data-dir', dataDir]);
    const [, url] = await waitForStdout(cli, LISTENING, 60_000);
    expect(cli.stderr()).toContain('building the service (out/service/cli.js)');
    expect(statSync(BUNDLE).mtimeMs).toBeGreaterThan(0);
    const tree = processTree(cli.child.pid!);
    expect(
      tree.some((p) => BUNDLE_RUN.test(p.cmdline)),
      JSON.stringify(tree),
    ).toBe(true);
    const token = await signIn(url!, 'demo@example.com', 'demo-password');
    expect((await facilities(url!, token)).length).toBeGreaterThanOrEqual(2);
    process.kill(cli.child.pid!, 'SIGTERM');
    await waitUntil('all gone', () => tree.every((p) => isGone(p.pid)));

    // Now fresh: the next start runs it without building, and the UI's files are served.
    const again = startNpmServe(['--port', '0', '--data-dir', dataDir]);
    const started = performance.now();
    const [, url2] = await waitForStdout(again, LISTENING, 60_000);
    console.log(
      `npm run serve (fresh bundle) spawn-to-ready: ${Math.round(performance.now() - started)} ms`,
    );
    expect(again.stderr()).not.toContain('building the service');
    const health = await fetch(`${url2}/api/health`);
    expect(health.status).toBe(200);
    // From the bundle too: the UI (out/renderer) and the API reference's own assets.
    const page = await fetch(`${url2}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const docs = await fetch(`${url2}/api/docs/`);
    expect(docs.status).toBe(200);
    const spec = await fetch(`${url2}/api/openapi.json`);
    expect(((await spec.json()) as { openapi: string }).openapi).toMatch(/^3\./);
    const againTree = processTree(again.child.pid!);
    process.kill(again.child.pid!, 'SIGTERM');
    await waitUntil('all gone', () => againTree.every((p) => isGone(p.pid)));
  }, 120_000);
});

describe('npm run serve: beyond loopback', () => {
  it('--host 0.0.0.0 without --allowed-host exits 2 naming the flag', async () => {
    const cli = startCli(['--host', '0.0.0.0', '--port', '0', '--data-dir', join(dataRoot, 'lan')]);
    expect((await exitWithin(cli, READY_TIMEOUT_MS)).code).toBe(2);
    expect(cli.stderr()).toContain('--host 0.0.0.0 is reachable from the network');
    expect(cli.stderr()).toContain('--allowed-host NAME');
    expect(cli.stdout()).not.toContain('listening on');
  }, 60_000);

  it('--host 0.0.0.0 --allowed-host NAME starts, warns on stderr that traffic is plain HTTP', async () => {
    const cli = startCli([
      '--host',
      '0.0.0.0',
      '--allowed-host',
      'warehouse-pc.lan',
      '--port',
      '0',
      '--data-dir',
      join(dataRoot, 'lan-allowed'),
    ]);
    const [, port] = await waitForStdout(cli, /^listening on http:\/\/0\.0\.0\.0:(\d+)$/m);
    expect(cli.stderr()).toMatch(/plain HTTP.*\n?.*TLS/);
    const allowed = await fetch(`http://127.0.0.1:${port}/api/health`, {
      headers: { host: 'warehouse-pc.lan' },
    });
    expect(allowed.status).toBe(200);
    cli.child.kill('SIGTERM');
    expect((await exitWithin(cli)).code).toBe(0);
  }, 60_000);
});
