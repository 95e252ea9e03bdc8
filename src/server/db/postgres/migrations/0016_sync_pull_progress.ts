import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL twin of sync/migrations/0016_sync_pull_progress: the central's latest version when
 * each device last pulled to the end, for the central's health.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sync_clients ADD COLUMN pulled_version bigint`.execute(db);
}
