import { sql, type Kysely } from 'kysely';

/**
 * The PO's lines keep the 850's order in a column of their own: the 855 and 810 match them to the
 * order's items by position (edi/order-lines.ts), and PostgreSQL has no rowid to read that order
 * by. Lines stored before have none and keep their rowid order on SQLite.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE order_po_lines ADD COLUMN position integer`.execute(db);
}
