import { sql, type Kysely } from 'kysely';

/**
 * Each delivery's exact document in a table of its own, written once with the outbox row and
 * never updated: an outcome then rewrites a small delivery row, not the document's overflow
 * pages (docs/benchmarks.md, issue 16 item 0). Stored documents move over; the old column stays,
 * always NULL from now on.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // With `tail` NULL the document is `body`; else it is body || the snapshot's items_json || tail
  // (a direct feed carries the snapshot's items verbatim: stored once, with the snapshot).
  await sql`CREATE TABLE advice_documents (
        delivery_id text PRIMARY KEY REFERENCES advice_deliveries (id) ON DELETE CASCADE,
        body text NOT NULL,
        tail text
      )`.execute(db);
  await sql`INSERT INTO advice_documents (delivery_id, body)
      SELECT id, document FROM advice_deliveries WHERE document IS NOT NULL`.execute(db);
  // A central's moved documents take their delivery's version, so a device pulling from the
  // start gets them (rows are versioned by TEMP triggers, which a migration does not run).
  await sql`INSERT OR IGNORE INTO sync_row_versions
        (tbl, row_key, version, deleted, facility_id, order_id, src_rowid)
      SELECT 'advice_documents', v.row_key, v.version, 0, v.facility_id, NULL, ad.rowid
      FROM advice_documents ad
      JOIN sync_row_versions v
        ON v.tbl = 'advice_deliveries' AND v.row_key = json_array(ad.delivery_id)`.execute(db);
  await sql`UPDATE advice_deliveries SET document = NULL WHERE document IS NOT NULL`.execute(db);
}
