import type { Db } from './database';

export function findUserByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash', 'brand_id'])
    .where('email', '=', email)
    .executeTakeFirst();
}

export function findUserById(db: Db, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'brand_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findSignInFailures(db: Db, email: string) {
  return db
    .selectFrom('sign_in_failures')
    .selectAll()
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function saveSignInFailures(
  db: Db,
  row: { email: string; failures: number; window_started_at: number; locked_until: number | null },
) {
  await db
    .insertInto('sign_in_failures')
    .values(row)
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({
        failures: row.failures,
        window_started_at: row.window_started_at,
        locked_until: row.locked_until,
      }),
    )
    .execute();
}

export async function clearSignInFailures(db: Db, email: string) {
  await db.deleteFrom('sign_in_failures').where('email', '=', email).execute();
}

/** Forgets failures whose window and lock are over, so the table does not grow without bound. */
export async function pruneSignInFailures(db: Db, windowStartedBefore: number, now: number) {
  await db
    .deleteFrom('sign_in_failures')
    .where('window_started_at', '<', windowStartedBefore)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .execute();
}
