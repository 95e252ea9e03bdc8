import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: json_or_null(text) reads a text column as jsonb, or NULL where it is not JSON.
 * SQLite's queries guard their JSON functions with json_valid(); PostgreSQL 15 has no such test
 * (IS JSON is 16) and a failed ::jsonb cast fails the whole statement, so the twins of those
 * queries (edi/document-status.postgres.ts, edi/timeline-queries.postgres.ts) read through this.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE FUNCTION json_or_null(value text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  RETURN value::jsonb;
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$`.execute(db);
}
