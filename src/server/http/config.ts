import { isIPv6 } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { centralUrlSchema, deviceIdSchema } from '../../shared/sync-settings';
import type { SyncSettings } from '../sync';
import { exposureProblem, isLoopbackHost } from './host-guard';

export interface ServiceOptions {
  host: string;
  port: number;
  dataDir: string;
  /** `demo`, a seed bundle path, or null. */
  seed: string | null;
  /** The built UI to serve at `/`; null for API only. */
  uiDir: string | null;
  /** Host header names remote clients may use; loopback names are accepted from loopback peers only. */
  allowedHosts?: string[];
  logger?: boolean;
  /** Sync with a central service (docs/sync.md); standalone when absent. */
  sync?: SyncSettings;
  /** `postgres://…`: run on PostgreSQL instead of SQLite in the data dir (DESIGN.md, Data layer). */
  databaseUrl?: string | null;
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
}

/** Connections per process when --pool-size is not given (docs/operations.md). */
export const DEFAULT_POOL_SIZE = 10;
const MAX_POOL_SIZE = 500;

export const USAGE = `usage: npm run serve -- [--host 127.0.0.1] [--port 8787] [--data-dir ./data] [--seed demo|FILE]
                       [--allowed-host NAME]... [--log-requests]
                       [--role central | --central URL --device-id ID --device-secret SECRET]
                       [--database-url postgres://USER@HOST:PORT/DB] [--pool-size 10]
Each flag can also be set by the upper-case environment variable of the same name (HOST, PORT,
DATA_DIR, SEED, ALLOWED_HOST: comma-separated, ROLE, CENTRAL, DEVICE_ID, DEVICE_SECRET,
DATABASE_URL, POOL_SIZE). A --host other than loopback needs --allowed-host.`;

export class UsageError extends Error {}

/** Flags win over environment variables, which win over defaults (DESIGN.md, Service flags). */
export function parseServiceFlags(
  argv: string[],
  env: NodeJS.ProcessEnv,
  defaults: { dataDir: string; uiDir?: string | null },
): ServiceOptions {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        seed: { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        'log-requests': { type: 'boolean' },
        role: { type: 'string' },
        central: { type: 'string' },
        'device-id': { type: 'string' },
        'device-secret': { type: 'string' },
        'database-url': { type: 'string' },
        'pool-size': { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const pick = (flag: string, envName: string) =>
    (values[flag] as string | undefined) ?? (env[envName] || undefined);
  const host = pick('host', 'HOST') ?? '127.0.0.1';
  const portText = pick('port', 'PORT') ?? '8787';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new UsageError(
      `--port must be a whole number from 0 to 65535, got '${portText}'\n${USAGE}`,
    );
  }
  const allowedHosts = parseAllowedHosts(
    (values['allowed-host'] as string[] | undefined) ??
      (env.ALLOWED_HOST ? env.ALLOWED_HOST.split(',') : []),
  );
  const exposure = exposureProblem(host, allowedHosts);
  if (exposure) throw new UsageError(`${exposure}\n${USAGE}`);
  const seed = pick('seed', 'SEED') ?? null;
  const sync = parseSyncFlags(pick);
  if (sync.role === 'workstation' && seed) {
    throw new UsageError(
      `--seed cannot be used with --central: a workstation gets its data from the central\n${USAGE}`,
    );
  }
  const { databaseUrl, poolSize } = parseDatabaseFlags(pick, sync);
  return {
    host,
    port,
    allowedHosts,
    sync,
    databaseUrl,
    poolSize,
    dataDir: resolve(pick('data-dir', 'DATA_DIR') ?? defaults.dataDir),
    seed,
    uiDir: defaults.uiDir ?? null,
    logger: values['log-requests'] === true,
  };
}

/**
 * `--database-url postgres://…` and `--pool-size N`. A workstation keeps its data in SQLite, so
 * `--central` with a database URL is refused here, before anything is opened; `--role central`
 * runs on either engine.
 */
function parseDatabaseFlags(
  pick: (flag: string, envName: string) => string | undefined,
  sync: SyncSettings,
): { databaseUrl: string | null; poolSize: number } {
  const databaseUrl = pick('database-url', 'DATABASE_URL') ?? null;
  const poolText = pick('pool-size', 'POOL_SIZE');
  const poolSize = poolText === undefined ? DEFAULT_POOL_SIZE : Number(poolText);
  if (
    poolText !== undefined &&
    (!/^\d+$/.test(poolText) || poolSize < 1 || poolSize > MAX_POOL_SIZE)
  ) {
    throw new UsageError(
      `--pool-size must be a whole number from 1 to ${MAX_POOL_SIZE}, got '${poolText}'\n${USAGE}`,
    );
  }
  if (databaseUrl === null) {
    if (poolText !== undefined) throw new UsageError(`--pool-size needs --database-url\n${USAGE}`);
    return { databaseUrl, poolSize };
  }
  let protocol: string;
  try {
    protocol = new URL(databaseUrl).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    // The URL may hold a password: never echo it.
    throw new UsageError(`--database-url must be a postgres:// URL\n${USAGE}`);
  }
  if (sync.role === 'workstation') {
    throw new UsageError(
      `--central cannot be used with --database-url: a workstation keeps its data in SQLite\n${USAGE}`,
    );
  }
  return { databaseUrl, poolSize };
}

/**
 * `--allowed-host` names: a DNS name, an IPv4 address or an IPv6 address (brackets optional), no
 * port. Loopback names are refused: a remote peer must never be able to pass as local.
 */
function parseAllowedHosts(names: string[]): string[] {
  const hosts: string[] = [];
  for (const raw of names) {
    const name = raw
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1');
    if (name === '') continue;
    const valid = name.includes(':')
      ? isIPv6(name) && name !== '::'
      : /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/.test(name) &&
        name !== '0.0.0.0';
    if (!valid) {
      throw new UsageError(
        `--allowed-host must be a host name or IP address without port, got '${raw}'\n${USAGE}`,
      );
    }
    if (isLoopbackHost(name)) {
      throw new UsageError(
        `--allowed-host ${raw} is a loopback name; loopback names are accepted from this machine only\n${USAGE}`,
      );
    }
    if (!hosts.includes(name)) hosts.push(name);
  }
  return hosts;
}

/** `--role central`, or `--central URL --device-id ID --device-secret SECRET`, or neither. */
function parseSyncFlags(pick: (flag: string, envName: string) => string | undefined): SyncSettings {
  const role = pick('role', 'ROLE');
  const central = pick('central', 'CENTRAL');
  const deviceId = pick('device-id', 'DEVICE_ID');
  const deviceSecret = pick('device-secret', 'DEVICE_SECRET');
  if (role !== undefined && !['central', 'workstation', 'standalone'].includes(role)) {
    throw new UsageError(
      `--role must be central, workstation or standalone, got '${role}'\n${USAGE}`,
    );
  }
  if (role === 'central') {
    if (central) throw new UsageError(`--role central cannot be used with --central\n${USAGE}`);
    return { role: 'central' };
  }
  if (!central) {
    if (role === 'workstation')
      throw new UsageError(`--role workstation needs --central URL\n${USAGE}`);
    return role === 'standalone' ? { role: 'standalone', explicit: true } : { role: 'standalone' };
  }
  if (role === 'standalone')
    throw new UsageError(`--role standalone cannot be used with --central\n${USAGE}`);
  // The Settings screen's rules (src/shared/sync-settings.ts): https:// but on loopback, a UUID.
  const url = centralUrlSchema.safeParse(central);
  if (!url.success) {
    throw new UsageError(`--central ${url.error.issues[0]!.message}, got '${central}'\n${USAGE}`);
  }
  if (!deviceId || !deviceSecret) {
    throw new UsageError(`--central needs --device-id and --device-secret\n${USAGE}`);
  }
  const id = deviceIdSchema.safeParse(deviceId);
  if (!id.success) {
    throw new UsageError(`--device-id ${id.error.issues[0]!.message}, got '${deviceId}'\n${USAGE}`);
  }
  return {
    role: 'workstation',
    centralUrl: url.data,
    deviceId: id.data,
    deviceSecret,
  };
}
