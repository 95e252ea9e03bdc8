import { sql, type Kysely } from 'kysely';

/**
 * The outbox drainer's durable state on each delivery.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The background drainer's durable state (src/server/inventory/transmission/outbox-drainer.ts).
  await db.schema.alterTable('advice_deliveries').addColumn('next_attempt_at', 'text').execute();
  await db.schema
    .alterTable('advice_deliveries')
    .addColumn('auto_retries', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('advice_deliveries')
    .addColumn('given_up', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // What a crash left PENDING is due at once; older failures stay with the clerk.
  await sql`UPDATE advice_deliveries SET next_attempt_at = updated_at
    WHERE status = 'PENDING' AND document IS NOT NULL AND connection_id IS NOT NULL`.execute(db);
  await db.schema
    .createIndex('advice_deliveries_due')
    .on('advice_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('next_attempt_at'), 'is not', null)
    .execute();
}
