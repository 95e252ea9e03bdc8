import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL cluster for the tests (issue 17, notes/postgres-central.md §3): initdb in
 * a temp dir, pg_ctl on 127.0.0.1 and a free port (Postgres refuses port 0) with fsync off, since
 * a test database never has to survive a power cut. initdb refuses root, so as root the server
 * runs as Debian's `postgres` user.
 */
export interface ThrowawayCluster {
  /** `postgres://app@127.0.0.1:PORT/postgres`: the superuser `app`, trusted on loopback. */
  adminUrl: string;
  dir: string;
  /** Stops the server and removes the dir; safe to call twice, synchronous for signal handlers. */
  stop(): void;
}

const CLUSTER_USER = 'app';

/** The newest Debian server binaries (/usr/lib/postgresql/N/bin), or PG_BIN; null when absent. */
export function serverBinaries(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.PG_BIN) return existsSync(join(env.PG_BIN, 'initdb')) ? env.PG_BIN : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const bin = join(root, major, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

export interface ClusterOptions {
  /**
   * fsync, synchronous_commit and full_page_writes on, as a production server runs (the central
   * bench, bench/central.ts, compares engines that both survive a power cut). Off by default.
   */
  durable?: boolean;
  /** More server settings, as `-c name=value` (the central bench's statement statistics). */
  settings?: string[];
}

/** Starts a cluster with the binaries in `bin`; throws with the server's own words on failure. */
export async function startCluster(
  bin: string,
  options: ClusterOptions = {},
): Promise<ThrowawayCluster> {
  const dir = mkdtempSync(join(tmpdir(), options.durable ? 'pg-bench-' : 'pg-test-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) chownSync(dir, postgresUid(), -1);
  const run = (tool: string, args: string[]): SpawnSyncReturns<string> => {
    const command = asRoot ? 'runuser' : join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    return spawnSync(command, argv, { encoding: 'utf8', cwd: dir });
  };
  const data = join(dir, 'data');
  let started = false;
  const stop = () => {
    if (started) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    started = false;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    check(
      run('initdb', [
        '-D',
        data,
        '-U',
        CLUSTER_USER,
        '-A',
        'trust',
        '-E',
        'UTF8',
        '--locale=C.UTF-8',
        '--no-sync',
      ]),
      'initdb',
    );
    const port = await freePort();
    const durability = options.durable
      ? ['-c fsync=on', '-c synchronous_commit=on', '-c full_page_writes=on']
      : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'];
    const serverOptions = [
      '-c listen_addresses=127.0.0.1',
      `-p ${port}`,
      `-k ${dir}`,
      ...durability,
      // Many test files run in parallel, each with its own pool.
      '-c max_connections=300',
      ...(options.settings ?? []).map((setting) => `-c ${setting}`),
    ].join(' ');
    started = true;
    check(
      run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-o', serverOptions, 'start']),
      'pg_ctl start',
    );
    return { adminUrl: `postgres://${CLUSTER_USER}@127.0.0.1:${port}/postgres`, dir, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

function check(result: SpawnSyncReturns<string>, what: string): void {
  if (result.status === 0) return;
  const output = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim();
  throw new Error(`${what} failed (${result.status ?? result.signal}): ${output}`);
}

function postgresUid(): number {
  const result = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error('no `postgres` user: install Debian’s postgresql');
  return Number(result.stdout.trim());
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
