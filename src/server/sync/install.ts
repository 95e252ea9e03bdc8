import type { OpenedDatabase } from '../db/database';
import type { OpenedPostgres } from '../db/postgres/open';
import { installPostgresStamps } from './stamps.postgres';
import type { ServiceContext } from '../core/context';
import { installChangeCapture } from './capture';
import { startSyncClient, type SyncClientOptions } from './client';
import { installCentralStamps } from './stamps';
import { REPLICATED_TABLES } from './synced-tables';
import type { SyncRuntime } from './runtime';

export type SyncSettings =
  /** `explicit`: asked for with `--role standalone`, so settings saved in the app do not apply. */
  | { role: 'standalone'; explicit?: boolean }
  | { role: 'central' }
  | {
      role: 'workstation';
      centralUrl: string;
      deviceId: string;
      deviceSecret: string;
      client?: Partial<SyncClientOptions>;
    };

/** Sync cannot start on this data dir (the message says why and what to do). */
export class SyncSetupError extends Error {}

/**
 * Turns sync on for an opened database: the central's version stamps, or a workstation's change
 * capture and sync loop. A standalone install gets nothing (no triggers, no cost).
 */
export function installSync(
  database: OpenedDatabase,
  ctx: ServiceContext,
  settings: SyncSettings,
): SyncRuntime {
  const { sqlite, transactionHooks } = database;
  const runtime: SyncRuntime = {
    role: settings.role,
    sqlite,
    deviceId: null,
    stamps: null,
    client: null,
  };
  if (settings.role === 'central') {
    runtime.stamps = installCentralStamps(sqlite, transactionHooks);
  } else if (settings.role === 'workstation') {
    claimDataDir(database, settings.deviceId);
    runtime.deviceId = settings.deviceId;
    const capture = installChangeCapture(
      sqlite,
      transactionHooks,
      settings.deviceId,
      () => ctx.clock.now(),
      () => runtime.client?.kick(),
    );
    runtime.client = startSyncClient(ctx, sqlite, capture, {
      centralUrl: settings.centralUrl,
      deviceId: settings.deviceId,
      deviceSecret: settings.deviceSecret,
      ...settings.client,
    });
  }
  return runtime;
}

/** Why a workstation cannot start on PostgreSQL (its capture and sync loop are SQLite's). */
export const WORKSTATION_NOT_ON_POSTGRES =
  'A workstation keeps its data in SQLite: start it without --database-url (on PostgreSQL a service is standalone or the central)';

/**
 * Sync on PostgreSQL: the central only (its stamps are the triggers of 0017_sync_stamps, made to
 * act here); a standalone service gets nothing (undefined, as before sync existed there).
 */
export async function installPostgresSync(
  store: OpenedPostgres,
  settings: SyncSettings,
): Promise<SyncRuntime | undefined> {
  if (settings.role === 'workstation') throw new SyncSetupError(WORKSTATION_NOT_ON_POSTGRES);
  if (settings.role !== 'central') return undefined;
  await installPostgresStamps(store.db);
  return { role: 'central', sqlite: null, deviceId: null, stamps: null, client: null };
}

/**
 * A workstation's data dir belongs to one device. One that holds data never synced is refused,
 * so a demo workspace or an old standalone install cannot be pushed into the central.
 */
function claimDataDir({ sqlite }: OpenedDatabase, deviceId: string): void {
  const state = sqlite.prepare(`SELECT device_id FROM sync_state WHERE id = 1`).get() as
    { device_id: string } | undefined;
  if (state) {
    if (state.device_id !== deviceId) {
      throw new SyncSetupError(
        `This data dir belongs to device ${state.device_id}; start with that --device-id or an empty --data-dir`,
      );
    }
    return;
  }
  const hasData = REPLICATED_TABLES.some((t) =>
    sqlite.prepare(`SELECT 1 FROM ${t.name} LIMIT 1`).get(),
  );
  if (hasData) {
    throw new SyncSetupError(
      'This data dir holds local data that was never synced; start the workstation with an empty --data-dir',
    );
  }
  sqlite.prepare(`INSERT INTO sync_state (id, device_id) VALUES (1, ?)`).run(deviceId);
}
