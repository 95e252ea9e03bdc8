import { sql, type Kysely } from 'kysely';

/**
 * EDI: the documents exchanged with retailers about an order (856, 855, 810, 997, shipment
 * confirmations, tracking), written in the same transaction as the step that makes them and
 * sent after the commit; and each connection's order-document settings.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // JSON of the connection's `order_documents` seed settings; null: no order documents.
  await sql`ALTER TABLE connections ADD COLUMN order_documents_json text`.execute(db);
  await sql`CREATE TABLE order_documents (
        id text PRIMARY KEY,
        order_id text NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        brand_id text NOT NULL,
        facility_id text NOT NULL,
        connection_id text,
        organization_id text,
        retailer_id text,
        type text NOT NULL,
        direction text NOT NULL,
        status text NOT NULL,
        interchange_control_number integer,
        group_control_number integer,
        transaction_control_number text,
        document text,
        content_type text,
        file_name text,
        error text,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at text,
        sender_id text,
        sent_at text,
        acknowledged_at text,
        created_at text NOT NULL,
        updated_at text NOT NULL
      )`.execute(db);
  await sql`CREATE INDEX order_documents_order ON order_documents (order_id, created_at)`.execute(
    db,
  );
  // The drainer's query: what is due to go out.
  await sql`CREATE INDEX order_documents_due ON order_documents (status, next_attempt_at)`.execute(
    db,
  );
  // A 997 names the outbound group by GS06 (per connection).
  await sql`CREATE INDEX order_documents_group ON order_documents (connection_id, group_control_number)`.execute(
    db,
  );
}
