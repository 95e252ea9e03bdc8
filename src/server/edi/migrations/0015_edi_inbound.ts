import { sql, type Kysely } from 'kysely';

/**
 * EDI inbound: every interchange received (HTTP, a polled folder), the PO's own lines of an order
 * made from an 850 (line ids and unit prices, for the 855 and 810), and order_documents rows that
 * belong to no order (the 997 that answers an inbound group).
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE edi_interchanges (
        id text PRIMARY KEY,
        connection_id text,
        organization_id text,
        brand_id text,
        retailer_id text,
        sender_qualifier text NOT NULL,
        sender_id text NOT NULL,
        receiver_id text NOT NULL,
        control_number text NOT NULL,
        source text NOT NULL,
        file_name text,
        user_id text,
        received_at text NOT NULL,
        raw text NOT NULL,
        outcome text NOT NULL,
        duplicate_of text,
        summary_json text NOT NULL
      )`.execute(db);
  // Duplicate detection by (sender, ISA13): one taken-in interchange per key; repeats are kept
  // as 'duplicate' rows, refused files as 'refused' (a corrected resend may use the same ISA13).
  await sql`CREATE UNIQUE INDEX edi_interchanges_sender_control ON edi_interchanges (sender_qualifier, sender_id, control_number) WHERE outcome NOT IN ('duplicate', 'refused')`.execute(
    db,
  );
  await sql`CREATE INDEX edi_interchanges_received ON edi_interchanges (organization_id, received_at)`.execute(
    db,
  );
  await sql`CREATE TABLE order_po_lines (
        order_id text NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        line_id text NOT NULL,
        sku text NOT NULL,
        upc text,
        quantity integer NOT NULL,
        unit_price real,
        unit text,
        PRIMARY KEY (order_id, line_id)
      )`.execute(db);
  // order_id and facility_id become optional (a 997 answers a group, not an order); the
  // interchange a document answers or came from is named. SQLite changes a column's NOT NULL
  // only by rebuilding the table.
  await sql`CREATE TABLE order_documents_next (
        id text PRIMARY KEY,
        order_id text REFERENCES orders (id) ON DELETE CASCADE,
        brand_id text NOT NULL,
        facility_id text,
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
        updated_at text NOT NULL,
        interchange_id text
      )`.execute(db);
  await sql`INSERT INTO order_documents_next (id, order_id, brand_id, facility_id, connection_id, organization_id, retailer_id, type, direction, status, interchange_control_number, group_control_number, transaction_control_number, document, content_type, file_name, error, attempts, next_attempt_at, sender_id, sent_at, acknowledged_at, created_at, updated_at)
      SELECT id, order_id, brand_id, facility_id, connection_id, organization_id, retailer_id, type, direction, status, interchange_control_number, group_control_number, transaction_control_number, document, content_type, file_name, error, attempts, next_attempt_at, sender_id, sent_at, acknowledged_at, created_at, updated_at FROM order_documents`.execute(
    db,
  );
  await sql`DROP TABLE order_documents`.execute(db);
  await sql`ALTER TABLE order_documents_next RENAME TO order_documents`.execute(db);
  await sql`CREATE INDEX order_documents_order ON order_documents (order_id, created_at)`.execute(
    db,
  );
  await sql`CREATE INDEX order_documents_due ON order_documents (status, next_attempt_at)`.execute(
    db,
  );
  await sql`CREATE INDEX order_documents_group ON order_documents (connection_id, group_control_number)`.execute(
    db,
  );
}
