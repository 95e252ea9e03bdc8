import { sql, type Kysely } from 'kysely';

/**
 * Sync: the BOL files each device uploaded, for its quota of unreferenced files.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Central: BOL files each device uploaded (by digest), for its quota of files no BOL version
  // refers to yet (docs/sync.md, Files).
  await sql`CREATE TABLE sync_file_uploads (
        device_id text NOT NULL,
        sha256 text NOT NULL,
        order_id text NOT NULL,
        size integer NOT NULL,
        uploaded_at text NOT NULL,
        PRIMARY KEY (device_id, sha256)
      )`.execute(db);
  await sql`CREATE INDEX sync_file_uploads_at ON sync_file_uploads (device_id, uploaded_at)`.execute(
    db,
  );
}
