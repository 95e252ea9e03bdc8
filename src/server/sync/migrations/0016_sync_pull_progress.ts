import { sql, type Kysely } from 'kysely';

/**
 * The central's latest version when each device last pulled to the end, for the central's health:
 * how far a device's pulls trail the latest version (docs/operations.md).
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sync_clients ADD COLUMN pulled_version INTEGER`.execute(db);
}
