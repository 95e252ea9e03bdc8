/**
 * The sync runtime: what sync/install.ts builds for a central or a workstation. Other features see
 * it through core's SyncView; only the sync feature reads its stamps.
 */
import type { ServiceContext, SyncView } from '../core/context';
import type { CentralStamps } from './stamps';

/** How this service takes part in sync; absent (or standalone) when sync is off. */
export interface SyncRuntime extends SyncView {
  /** A SQLite central's stamps; null elsewhere (PostgreSQL stamps in triggers, sync_version()). */
  stamps: CentralStamps | null;
}

/** The runtime behind ctx.sync: install.ts is the only place that sets ctx.sync, always to one. */
export function syncRuntimeOf(ctx: Pick<ServiceContext, 'sync'>): SyncRuntime | undefined {
  return ctx.sync as SyncRuntime | undefined;
}
