import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL twin of inventory/migrations/0016_advice_documents: each delivery's document in a
 * table of its own, written once and never updated. Sync does not run on PostgreSQL yet, so no
 * version rows are made for the moved documents.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE advice_documents (
        delivery_id text PRIMARY KEY REFERENCES advice_deliveries (id) ON DELETE CASCADE,
        body text NOT NULL,
        tail text
      )`.execute(db);
  await sql`INSERT INTO advice_documents (delivery_id, body)
      SELECT id, document FROM advice_deliveries WHERE document IS NOT NULL`.execute(db);
  await sql`UPDATE advice_deliveries SET document = NULL WHERE document IS NOT NULL`.execute(db);
}
