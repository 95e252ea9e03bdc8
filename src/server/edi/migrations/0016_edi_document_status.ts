import { sql, type Kysely } from 'kysely';

/**
 * The outbound documents list and the header's count (GET /api/v1/edi/documents/summary) read
 * per visible order its documents' direction, status, type, send time and connection: this index
 * holds exactly those, so the count never reads a document's content (tens of kilobytes for a
 * large 856) from the table.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX order_documents_order_status ON order_documents (order_id, direction, status, type, sent_at, connection_id)`.execute(
    db,
  );
}
