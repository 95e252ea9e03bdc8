import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL twin of edi/migrations/0016_edi_document_status: the index the outbound documents
 * list and the header's count read instead of the documents' content.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX order_documents_order_status ON order_documents (order_id, direction, status, type, sent_at, connection_id)`.execute(
    db,
  );
}
