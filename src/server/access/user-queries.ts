import type { Db } from '../db/db';

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

/**
 * Replaces a hash made at a lower cost with one for the same password, unless the password was
 * changed meanwhile (then the stored hash is no longer `from`, and nothing happens).
 */
export async function upgradePasswordHash(db: Db, userId: string, from: string, to: string) {
  await db
    .updateTable('users')
    .set({ password_hash: to })
    .where('id', '=', userId)
    .where('password_hash', '=', from)
    .execute();
}
