import type { Kysely } from 'kysely';

/**
 * Whether the disk holding the database is full, as the last writes saw it. SQLite answers
 * SQLITE_FULL (and file writes ENOSPC) when it is; reads go on working. The flag is set by any
 * failed write (a request, a background loop, the WAL checkpoint) and cleared by a write that
 * commits once the database has grown past its size at the last failure, so health and the
 * header show the fault and its end without a restart. An in-place update succeeds on a full
 * disk too (it needs no new page), so its success alone says nothing about room for new records.
 */
export interface StorageStatus {
  /** When a write first failed for lack of space; null while writes succeed. */
  fullSince: Date | null;
  /** The database's size in pages when a write last failed for lack of space. */
  pagesWhenFull: number | null;
  /** Reads the database's current size in pages (set by openDatabase). */
  pageCount?: () => number;
}

const statuses = new WeakMap<object, StorageStatus>();

export function newStorageStatus(): StorageStatus {
  return { fullSince: null, pagesWhenFull: null };
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
  status.pagesWhenFull = currentPages(status);
  return true;
}

/** A write committed: the fault is over only if the database could grow past where it stopped. */
export function noteWriteSucceeded(status: StorageStatus): void {
  if (!status.fullSince) return;
  const pages = currentPages(status);
  if (pages !== null && status.pagesWhenFull !== null && pages <= status.pagesWhenFull) return;
  status.fullSince = null;
  status.pagesWhenFull = null;
}

/** Null when the size cannot be read (no reader, or the database is closed). */
function currentPages(status: StorageStatus): number | null {
  try {
    return status.pageCount?.() ?? null;
  } catch {
    return null;
  }
}
