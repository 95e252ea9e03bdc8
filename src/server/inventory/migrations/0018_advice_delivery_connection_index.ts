import { sql, type Kysely } from 'kysely';

/**
 * Deliveries by connection in time order, without their status: an outcome (PENDING to SUCCESS
 * or FAILURE) then leaves the index alone. With the status in the key, each of an advice's
 * outcomes moved its entry from the connection's PENDING range to the end of its SUCCESS range,
 * about 14 more pages in the outcome commit of an 8-partner advice (docs/benchmarks.md, issue 16
 * item 0). The queries by connection (a newer snapshot sent or accepted, the last accepted one)
 * read the connection's deliveries and filter the status; no query reads by status alone
 * through this index.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS advice_deliveries_connection_status`.execute(db);
  await sql`CREATE INDEX advice_deliveries_connection_created ON advice_deliveries (connection_id, created_at)`.execute(
    db,
  );
}
