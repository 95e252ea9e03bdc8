import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the file store (bills of lading, stored documents) lives in the database, so
 * any central process serves any file. Content-addressed like the data dir's
 * `documents/sha256/<hash>.pdf`: the key is the SHA-256 of the bytes, in lower-case hex, and the
 * same bytes are stored once. SQLite keeps its files in the data dir (no twin there).
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE stored_files (
    sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    content bytea NOT NULL,
    size bigint NOT NULL CHECK (size = octet_length(content)),
    created_at text NOT NULL
  )`.execute(db);
}
