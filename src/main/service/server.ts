import { readFileSync } from 'node:fs';
import { defaultDeliveryPolicy } from '../advice/types';
import { openDatabase } from '../db/database';
import type { ServiceContext } from '../domain/context';
import { systemClock } from '../domain/context';
import {
  DEMO_EMAIL,
  DEMO_PASSWORD,
  demoSignInUnchanged,
  importDemoWorkspace,
} from '../domain/demo';
import { pendingDeliveriesNotice } from '../domain/inventory/history';
import { importSeedBundle, SeedError } from '../domain/seed';
import { loadOrCreateSecret } from '../domain/tokens';
import { buildApp } from './app';
import type { ServiceOptions } from './config';

export type { ServiceOptions } from './config';

export interface RunningService {
  url: string;
  host: string;
  port: number;
  context: ServiceContext;
  close(): Promise<void>;
}

/** Lines printed at start: the demo sign-in while unchanged, and what a crash left in the outbox. */
export async function startupNotices(ctx: ServiceContext): Promise<string[]> {
  const notices: string[] = [];
  if (await demoSignInUnchanged(ctx.db))
    notices.push(`demo sign-in: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  const pending = await pendingDeliveriesNotice(ctx);
  if (pending) notices.push(pending);
  return notices;
}

/** Imports `demo` or the bundle at a path; a bad file or bundle is a SeedError naming the problem. */
export async function applySeed(ctx: ServiceContext, seed: string) {
  if (seed === 'demo') return importDemoWorkspace(ctx.db);
  let bundle: unknown;
  try {
    bundle = JSON.parse(readFileSync(seed, 'utf8'));
  } catch (error) {
    throw new SeedError(`Cannot read seed bundle ${seed}: ${(error as Error).message}`);
  }
  return importSeedBundle(ctx.db, bundle);
}

/** Opens the data dir, applies the seed, and listens. Used by the CLI, Electron's utility process and tests. */
export async function startService(
  options: ServiceOptions,
  overrides: Partial<ServiceContext> = {},
): Promise<RunningService> {
  const database = await openDatabase(options.dataDir);
  const context: ServiceContext = {
    db: database.db,
    secret: loadOrCreateSecret(options.dataDir),
    clock: systemClock,
    dataDir: options.dataDir,
    deliveryPolicy: defaultDeliveryPolicy,
    deliveryConcurrency: 8,
    deliveriesInFlight: new Set(),
    ...overrides,
  };
  try {
    if (options.seed) await applySeed(context, options.seed);
    const app = await buildApp(context, options);
    await app.listen({ host: options.host, port: options.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
    return {
      url: `http://${hostInUrl}:${port}`,
      host: options.host,
      port,
      context,
      async close() {
        await app.close(); // waits for in-flight requests
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
