import { sql, type Kysely } from 'kysely';

/**
 * Sync: the brand of a refused order, kept with its conflict.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The brand of a refused order, kept with its conflict: a refused create leaves no order
  // to read it from, and the brand's users must still see it (docs/sync.md, section 9).
  await sql`ALTER TABLE sync_conflicts ADD COLUMN brand_id text`.execute(db);
}
