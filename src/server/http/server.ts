import { existsSync, readFileSync } from 'node:fs';
import { startOutboxDrainer, type OutboxDrainer, type OutboxDrainerOptions } from '../inventory';
import { defaultDeliveryPolicy } from '../inventory';
import { openDatabase, type OpenedDatabase } from '../db/database';
import { openPostgres, type OpenedPostgres } from '../db/postgres/open';
import type { ServiceContext } from '../core/context';
import { systemClock } from '../core/context';
import {
  DEMO_EMAIL,
  DEMO_PASSWORD,
  demoSignInUnchanged,
  importDemoWorkspaceWithDocuments,
} from '../seed';
import { pendingDeliveriesNotice } from '../inventory';
import { DRAIN_BATCH_SIZE, redeliverDue } from '../inventory';
import { sealStoredConnections } from '../inventory';
import { startInboundPoller, startOrderDocumentDrainer } from '../edi';
import { useSecretsKey } from '../core/secret-box';
import { importSeedBundle, SeedError } from '../seed';
import { loadOrCreateSecret, loadOrCreateSharedSecret } from '../access';
import type { SyncSettings } from '../sync';
import { installConfiguredSync, installConfiguredSyncOnPostgres } from '../sync';
import { SyncSetupError, WORKSTATION_NOT_ON_POSTGRES } from '../sync';
import { sealStoredSyncSecret, syncSettingsPath } from '../sync';
import { buildApp } from './app';
import { CLOSE_STEP_MS, within } from './bounded-close';
import { DEFAULT_POOL_SIZE, type ServiceOptions } from './config';

export type { ServiceOptions } from './config';

export interface RunningService {
  url: string;
  host: string;
  port: number;
  context: ServiceContext;
  /** The background outbox drainer; null when started with `outboxDrain: false`. */
  drainer: OutboxDrainer | null;
  /** The background sender of order documents (ASNs, …); null with `outboxDrain: false`. */
  documentDrainer: OutboxDrainer | null;
  close(): Promise<void>;
}

/** Start options beyond the CLI's: tests tune or switch off the background outbox drainer. */
export interface StartOptions extends ServiceOptions {
  outboxDrain?: false | Partial<OutboxDrainerOptions>;
  /**
   * The desktop's key for secrets at rest (device secret, connection credentials), from the OS
   * keychain via the Electron main process; none headless (domain/secret-box.ts).
   */
  secretsKey?: Uint8Array | null;
  /** How long close() waits for in-flight requests, then for the database (CLOSE_STEP_MS). */
  closeStepMs?: number;
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
  if (seed === 'demo') return importDemoWorkspaceWithDocuments(ctx);
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
  options: StartOptions,
  overrides: Partial<ServiceContext> = {},
): Promise<RunningService> {
  useSecretsKey(options.secretsKey ?? null);
  const database = await openStore(options);
  // On PostgreSQL every central process signs with the database's secret (access/shared-secret).
  const secret =
    'sqlite' in database
      ? loadOrCreateSecret(options.dataDir)
      : await loadOrCreateSharedSecret(database.db, systemClock.now().toISOString()).catch(
          async (error: unknown) => {
            await database.close();
            throw error;
          },
        );
  const context: ServiceContext = {
    db: database.db,
    secret,
    clock: systemClock,
    dataDir: options.dataDir,
    deliveryPolicy: defaultDeliveryPolicy,
    deliveryConcurrency: 8,
    deliveriesInFlight: new Set(),
    ...(options.monitoringToken ? { monitoringToken: options.monitoringToken } : {}),
    ...overrides,
  };
  try {
    await sealStoredConnections(context.db);
    sealStoredSyncSecret(options.dataDir);
    // Sync flags win; without them (standalone) the settings saved in the Settings screen
    // (<data-dir>/sync-settings.json) make this a workstation (src/server/sync/settings.ts).
    // On PostgreSQL only flags count (a central); openStore refused saved workstation settings.
    if ('sqlite' in database)
      context.sync = installConfiguredSync(database, context, options, withTestTuning);
    else context.sync = await installConfiguredSyncOnPostgres(database, context, options);
    if (options.seed) await applySeed(context, options.seed);
    const app = await buildApp(context, options);
    await app.listen({ host: options.host, port: options.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    context.servicePorts = [port];
    const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
    const drainer =
      options.outboxDrain === false
        ? null
        : startOutboxDrainer(() => redeliverDue(context, DRAIN_BATCH_SIZE), options.outboxDrain);
    // Same switch and tuning as the advice outbox: queued documents a crash left go out on start.
    const documentDrainer =
      options.outboxDrain === false
        ? null
        : startOrderDocumentDrainer(context, options.outboxDrain);
    // Inbound folders (order_documents.inbound) are taken in on the same switch.
    const inboundPoller =
      options.outboxDrain === false ? null : startInboundPoller(context, options.outboxDrain);
    return {
      url: `http://${hostInUrl}:${port}`,
      host: options.host,
      port,
      context,
      drainer,
      documentDrainer,
      async close() {
        await drainer?.stop(); // bounded: a pass stuck on a slow partner does not hold the close
        await documentDrainer?.stop();
        await inboundPoller?.stop();
        await context.sync?.client?.stop();
        const stepMs = options.closeStepMs ?? CLOSE_STEP_MS;
        // Waits for in-flight requests, but not forever: past the bound their sockets are cut.
        await within('in-flight requests', app.close(), stepMs, () =>
          app.server.closeAllConnections(),
        );
        // The pool ends once every checked-out connection is back: bounded too.
        await within('the database', database.close(), stepMs);
      },
    };
  } catch (error) {
    await context.sync?.client?.stop();
    await database.close();
    throw error;
  }
}

/**
 * SQLite in the data dir, or PostgreSQL with --database-url. A workstation keeps its data in
 * SQLite: the flags refuse one on PostgreSQL (./config.ts), and sync settings saved in the data
 * dir (always a workstation's) are refused here, at start, rather than ignored.
 */
async function openStore(options: StartOptions): Promise<OpenedDatabase | OpenedPostgres> {
  if (!options.databaseUrl) return openDatabase(options.dataDir);
  if (existsSync(syncSettingsPath(options.dataDir))) {
    throw new SyncSetupError(
      `The sync settings saved in ${syncSettingsPath(options.dataDir)} make this a workstation. ${WORKSTATION_NOT_ON_POSTGRES}`,
    );
  }
  return openPostgres(options.databaseUrl, options.poolSize ?? DEFAULT_POOL_SIZE);
}

/** SYNC_INTERVAL_MS shortens the sync loop's rounds and backoff (tests and the e2e use it). */
function withTestTuning(settings: SyncSettings | undefined): SyncSettings {
  if (!settings) return { role: 'standalone' };
  if (settings.role !== 'workstation') return settings;
  const interval = Number(process.env.SYNC_INTERVAL_MS);
  // SYNC_PULL_LIMIT: smaller pull pages, so a test can stop a process between two of them.
  const pullLimit = Number(process.env.SYNC_PULL_LIMIT);
  return {
    ...settings,
    client: {
      ...(interval > 0 ? { intervalMs: interval, maxBackoffMs: interval * 4 } : {}),
      ...(pullLimit > 0 ? { pullLimit } : {}),
      ...settings.client,
    },
  };
}
