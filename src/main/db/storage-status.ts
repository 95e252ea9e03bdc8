import type { Kysely } from 'kysely';

/**
 * Whether the disk holding the database is full, as the last writes saw it. SQLite answers
 * SQLITE_FULL (and file writes ENOSPC) when it is; reads go on working. The flag is set by any
 * failed write (a request, a background loop, the WAL checkpoint) and cleared by the next write
 * that commits, so health and the header show the fault and its end without a restart.
 */
export interface StorageStatus {
  /** When a write first failed for lack of space; null while writes succeed. */
  fullSince: Date | null;
}

const statuses = new WeakMap<object, StorageStatus>();

export function newStorageStatus(): StorageStatus {
  return { fullSince: null };
}

/** Ties the status to the Kysely instance, so whoever holds `ctx.db` can read it. */
export function registerStorageStatus(db: Kysely<never> | object, status: StorageStatus): void {
  statuses.set(db, status);
}

/** The status of a database opened by openDatabase; a fresh one (never full) otherwise. */
export function storageStatusOf(db: object): StorageStatus {
  let status = statuses.get(db);
  if (!status) {
    status = newStorageStatus();
    statuses.set(db, status);
  }
  return status;
}

/** SQLite's "database or disk is full" and the OS's "no space left on device". */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}

/** Notes a failure; returns whether it was a full disk. */
export function noteWriteFailure(status: StorageStatus, error: unknown): boolean {
  if (!isDiskFull(error)) return false;
  status.fullSince ??= new Date();
  return true;
}

export function noteWriteSucceeded(status: StorageStatus): void {
  status.fullSince = null;
}
