import { authDataVersion } from '../db/auth-version';
import type { Db } from '../db/db';
import { findUserById } from './user-queries';
import type { AuthUser } from '../core/context';

/** Past this many entries the cache starts over (users x facilities on one workstation is small). */
const MAX_ENTRIES = 10_000;

interface Entries {
  version: number;
  values: Map<string, unknown>;
}
const caches = new WeakMap<Db, Entries>();

/**
 * Data that depends only on users, grants and the organisation tree (the signed-in user, the
 * lookups), kept until any of those rows change (db/auth-version). `load` must read through
 * Kysely and return a value no caller mutates. Keys must name every input of `load`.
 *
 * The version is read before loading and the result is kept only if the version has not moved
 * meanwhile, so a load that raced with a write is used once and not kept.
 */
export async function cachedAuthData<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
  const version = await authDataVersion(db);
  if (version === undefined) return load();
  let entries = caches.get(db);
  if (entries?.version === version && entries.values.has(key)) return entries.values.get(key) as T;
  const value = await load();
  if ((await authDataVersion(db)) === version) {
    entries = caches.get(db);
    if (!entries || entries.version !== version || entries.values.size >= MAX_ENTRIES) {
      entries = { version, values: new Map() };
      caches.set(db, entries);
    }
    entries.values.set(key, value);
  }
  return value;
}

/** The user a verified token names, as routes see it; undefined once the user is deleted. */
export function authUserById(db: Db, userId: string): Promise<AuthUser | undefined> {
  return cachedAuthData(db, `user:${userId}`, async () => {
    const row = await findUserById(db, userId);
    // Shared by every request of this user until auth data changes: frozen.
    return row && Object.freeze({ id: row.id, email: row.email, brandId: row.brand_id });
  });
}
