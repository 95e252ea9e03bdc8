import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL twin of inventory/migrations/0018_advice_delivery_connection_index: deliveries by
 * connection in time order, without their status, so an outcome's status change leaves the
 * index alone (and may be a HOT update).
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS advice_deliveries_connection_status`.execute(db);
  await sql`CREATE INDEX advice_deliveries_connection_created ON advice_deliveries (connection_id, created_at)`.execute(
    db,
  );
}
