import { sql, type Kysely } from 'kysely';

/**
 * Polled interchanges by connection and file name: before a polled file is taken in, the poller
 * looks for a row of the same connection with the same file name (then compares the text), so a
 * file whose move failed before a restart is only moved, not taken in again. Rows posted over
 * HTTP have no file name and stay out of the index.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX edi_interchanges_polled_file ON edi_interchanges (connection_id, file_name) WHERE file_name IS NOT NULL`.execute(
    db,
  );
}
