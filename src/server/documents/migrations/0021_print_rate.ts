import { type Kysely } from 'kysely';

/**
 * The print rate counted in the database (decision "print rate in the database"): one row per
 * admitted label print, deleted once it leaves the minute. Local, never replicated by sync.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('print_admissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('admitted_at', 'integer', (c) => c.notNull())
    .execute();
  // A user's prints in the window: counted, and the older ones deleted, on every print.
  await db.schema
    .createIndex('print_admissions_user_admitted')
    .on('print_admissions')
    .columns(['user_id', 'admitted_at'])
    .execute();
}
