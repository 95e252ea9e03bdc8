import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL twin of edi/migrations/0016_edi_po_line_position: the PO lines' position in the
 * 850, which the lines are read in (there is no rowid here).
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE order_po_lines ADD COLUMN position bigint`.execute(db);
}
