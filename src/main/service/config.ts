import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface ServiceOptions {
  host: string;
  port: number;
  dataDir: string;
  /** `demo`, a seed bundle path, or null. */
  seed: string | null;
  /** The built UI to serve at `/`; null for API only. */
  uiDir: string | null;
  /** Extra Host header names accepted besides loopback and `host`. */
  allowedHosts?: string[];
  logger?: boolean;
}

export const USAGE = `usage: npm run serve -- [--host 127.0.0.1] [--port 8787] [--data-dir ./data] [--seed demo|FILE]
Each flag can also be set by the upper-case environment variable of the same name (HOST, PORT, DATA_DIR, SEED).`;

export class UsageError extends Error {}

/** Flags win over environment variables, which win over defaults (DESIGN.md, Service flags). */
export function parseServiceFlags(
  argv: string[],
  env: NodeJS.ProcessEnv,
  defaults: { dataDir: string; uiDir?: string | null },
): ServiceOptions {
  let values: Record<string, string | boolean | undefined>;
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
        'log-requests': { type: 'boolean' },
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
  return {
    host,
    port,
    dataDir: resolve(pick('data-dir', 'DATA_DIR') ?? defaults.dataDir),
    seed: pick('seed', 'SEED') ?? null,
    uiDir: defaults.uiDir ?? null,
    logger: values['log-requests'] === true,
  };
}
