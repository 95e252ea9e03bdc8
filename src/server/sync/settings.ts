import {
  SYNC_NOT_ON_POSTGRES,
  type StoredSyncSettings,
  type SyncSettingsBody,
  type SyncSettingsSource,
  type SyncSettingsView,
} from '../../shared/sync-settings';
import { hasAnyAdminGrant } from '../documents';
import type { OpenedDatabase } from '../db/database';
import { engineOf } from '../db/engine';
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict, forbidden, invalidRequest } from '../core/errors';
import { isInstallAdmin, requireInstallAdmin } from '../access';
import { CentralIdentityError } from './client';
import type { OpenedPostgres } from '../db/postgres/open';
import { installPostgresSync, installSync, SyncSetupError, type SyncSettings } from './install';
import type { SyncRuntime } from './runtime';
import {
  clearStoredSyncSettings,
  readStoredSyncSettings,
  syncSettingsPath,
  writeStoredSyncSettings,
} from './stored-settings';

export const FLAGS_SET_MESSAGE =
  'Sync is set by start-up flags; change them where the app is started';

/** How the running service chose its sync role at start (per service context). */
interface StartupSync {
  source: SyncSettingsSource;
  flags: SyncSettings;
  /** Why stored settings were not applied; null when they were, or there were none. */
  problem: string | null;
}
const startups = new WeakMap<ServiceContext, StartupSync>();

function startupOf(ctx: ServiceContext): StartupSync {
  return startups.get(ctx) ?? { source: 'none', flags: { role: 'standalone' }, problem: null };
}

/**
 * Installs sync with the start-up flags or, when they leave the service standalone, with the
 * settings saved in the Settings screen (`<data-dir>/sync-settings.json`). Flags always win.
 * Stored settings that cannot start a workstation (a `--seed` to import, or a data dir holding
 * data never synced) leave the service standalone with one line on stderr, so a setting saved in
 * the UI can never keep the app from starting; the Settings screen shows why.
 */
export function installConfiguredSync(
  database: OpenedDatabase,
  ctx: ServiceContext,
  options: { dataDir: string; sync?: SyncSettings; seed: string | null },
  tune: (settings: SyncSettings) => SyncSettings,
  log: (line: string) => void = (line) => console.error(line),
): SyncRuntime {
  const flags = options.sync ?? { role: 'standalone' };
  const standalone = () => installSync(database, ctx, tune(flags));
  if (flags.role !== 'standalone' || flags.explicit) {
    startups.set(ctx, { source: 'flags', flags, problem: null });
    return installSync(database, ctx, tune(flags));
  }
  const stored = readStoredSyncSettings(options.dataDir, log);
  if (!stored) {
    startups.set(ctx, { source: 'none', flags, problem: null });
    return standalone();
  }
  const skip = (problem: string) => {
    log(`not syncing with ${syncSettingsPath(options.dataDir)}: ${problem}`);
    startups.set(ctx, { source: 'stored', flags, problem });
    return standalone();
  };
  if (options.seed) {
    return skip(
      'A seed was imported at this start (--seed); a workstation gets its data from the central',
    );
  }
  try {
    const runtime = installSync(database, ctx, tune(workstationOf(stored)));
    startups.set(ctx, { source: 'stored', flags, problem: null });
    return runtime;
  } catch (error) {
    if (error instanceof SyncSetupError) return skip(error.message);
    throw error;
  }
}

/**
 * Sync on PostgreSQL, from the flags only: settings saved in the Settings screen make a
 * workstation, which keeps its data in SQLite (server.ts refuses a data dir holding them).
 */
export async function installConfiguredSyncOnPostgres(
  store: OpenedPostgres,
  ctx: ServiceContext,
  options: { sync?: SyncSettings },
): Promise<SyncRuntime | undefined> {
  const flags = options.sync ?? { role: 'standalone' };
  const source = flags.role !== 'standalone' || flags.explicit ? 'flags' : 'none';
  startups.set(ctx, { source, flags, problem: null });
  return installPostgresSync(store, flags);
}

function workstationOf(stored: StoredSyncSettings): SyncSettings {
  return {
    role: 'workstation',
    centralUrl: stored.central_url,
    deviceId: stored.device_id,
    deviceSecret: stored.device_secret,
  };
}

/**
 * Any user who administers something (an admin grant for any brand at any facility) may see the
 * settings; changing them is an install admin's (domain/install-admin.ts): the data dir is the
 * workstation's, whatever tenant works at it.
 */
async function requireAdmin(ctx: ServiceContext, user: AuthUser): Promise<void> {
  if (!(await hasAnyAdminGrant(ctx.db, user.id))) throw forbidden();
}

/** What the settings screen shows: the settings in force or saved, never the secret. */
export async function syncSettingsView(
  ctx: ServiceContext,
  user: AuthUser,
): Promise<SyncSettingsView> {
  await requireAdmin(ctx, user);
  return currentView(ctx, await isInstallAdmin(ctx.db, user.id));
}

function currentView(ctx: ServiceContext, canChange: boolean): SyncSettingsView {
  const view = viewOf(ctx, canChange);
  // The form stores a workstation's settings, which PostgreSQL cannot run; the screen says why.
  // Started by flags (a central), the view shows those, as on SQLite.
  return engineOf(ctx.db) === 'postgres' && startupOf(ctx).source !== 'flags'
    ? { ...view, can_change: false, problem: SYNC_NOT_ON_POSTGRES }
    : view;
}

function viewOf(ctx: ServiceContext, canChange: boolean): SyncSettingsView {
  const startup = startupOf(ctx);
  const active_role = ctx.sync?.role ?? 'standalone';
  const live = {
    active_role,
    can_change: canChange,
    central_changed: ctx.sync?.client?.lastError instanceof CentralIdentityError,
  };
  if (startup.source === 'flags') {
    const workstation = startup.flags.role === 'workstation' ? startup.flags : null;
    return {
      central_url: workstation?.centralUrl ?? null,
      device_id: workstation?.deviceId ?? null,
      has_secret: workstation !== null,
      source: 'flags',
      ...live,
      problem: null,
    };
  }
  let fileProblem: string | null = null;
  const stored = readStoredSyncSettings(ctx.dataDir, (line) => {
    fileProblem = line.charAt(0).toUpperCase() + line.slice(1);
  });
  return {
    central_url: stored?.central_url ?? null,
    device_id: stored?.device_id ?? null,
    has_secret: stored !== null,
    source: stored ? 'stored' : 'none',
    ...live,
    problem: fileProblem ?? (stored ? startup.problem : null),
  };
}

function requireStorable(ctx: ServiceContext): void {
  if (engineOf(ctx.db) === 'postgres') throw conflict(SYNC_NOT_ON_POSTGRES);
  if (startupOf(ctx).source === 'flags') throw conflict(FLAGS_SET_MESSAGE);
  if (ctx.dataDir === ':memory:') {
    throw conflict('This service keeps no data dir; start it with the sync flags instead');
  }
}

/**
 * Saves the settings for the next start. An empty secret keeps the stored one, but only for the
 * same device id and central URL: a secret belongs to its device, and must never be sent to a
 * central the person who typed it did not choose.
 */
export async function saveSyncSettings(
  ctx: ServiceContext,
  user: AuthUser,
  body: SyncSettingsBody,
): Promise<SyncSettingsView> {
  await requireInstallAdmin(ctx, user);
  requireStorable(ctx);
  let secret = body.device_secret;
  if (secret === '') {
    const stored = readStoredSyncSettings(ctx.dataDir, () => undefined);
    if (!stored || stored.device_id !== body.device_id || stored.central_url !== body.central_url) {
      throw invalidRequest('Invalid sync settings', {
        details: !stored
          ? 'device_secret: is required'
          : stored.device_id !== body.device_id
            ? 'device_secret: is required for a new device id'
            : 'device_secret: is required for a new central URL',
      });
    }
    secret = stored.device_secret;
  }
  writeStoredSyncSettings(ctx.dataDir, { ...body, device_secret: secret });
  return currentView(ctx, true);
}

/** Removes the stored settings: the next start is standalone (unless flags say otherwise). */
export async function clearSyncSettings(
  ctx: ServiceContext,
  user: AuthUser,
): Promise<SyncSettingsView> {
  await requireInstallAdmin(ctx, user);
  requireStorable(ctx);
  clearStoredSyncSettings(ctx.dataDir);
  return currentView(ctx, true);
}

export const CENTRAL_NOT_CHANGED =
  'The central service has not changed: there is no new one to accept';

/**
 * Accepts a central whose identity changed (CentralIdentityError): forgets the pull cursor that
 * pinned the old one, so the next round pushes what the new central lacks and then takes
 * everything from it (a reset page). Install admins only: it trusts a server with the device
 * secret and every change made here.
 */
export async function acceptNewCentral(
  ctx: ServiceContext,
  user: AuthUser,
): Promise<SyncSettingsView> {
  await requireInstallAdmin(ctx, user);
  const client = ctx.sync?.client;
  if (ctx.sync?.role !== 'workstation' || !client) {
    throw conflict('This app does not sync as a workstation');
  }
  // Forgetting the cursor costs a full pull: only when the central really changed.
  if (!(client.lastError instanceof CentralIdentityError)) {
    throw conflict(CENTRAL_NOT_CHANGED);
  }
  await ctx.db.updateTable('sync_state').set({ cursor: null }).where('id', '=', 1).execute();
  void client.syncNow();
  return { ...currentView(ctx, true), central_changed: false };
}
