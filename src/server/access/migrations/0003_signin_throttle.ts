import { sql, type Kysely } from 'kysely';

/**
 * Sign-in throttling by last attempt, and the seed source of a user's password.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Every sign-in attempt is counted before the password is checked; the row keeps the last one.
  await sql`ALTER TABLE sign_in_failures RENAME COLUMN window_started_at TO last_attempt_at`.execute(
    db,
  );
  await db.schema
    .createIndex('sign_in_failures_last_attempt')
    .on('sign_in_failures')
    .column('last_attempt_at')
    .execute();
  // The seed source that last set or confirmed the password, so re-importing it skips scrypt.
  await db.schema.alterTable('users').addColumn('seed_source', 'text').execute();
}
