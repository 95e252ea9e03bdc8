import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL twin of edi/migrations/0022_edi_polled_file_index: polled interchanges by connection
 * and file name, for the poller's look-up of a file it dealt with before a restart.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX edi_interchanges_polled_file ON edi_interchanges (connection_id, file_name) WHERE file_name IS NOT NULL`.execute(
    db,
  );
}
