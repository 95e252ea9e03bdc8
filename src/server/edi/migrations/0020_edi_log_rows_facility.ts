import { sql, type Kysely } from 'kysely';

/**
 * The inbound path's log rows written before decision 0226 name no facility, so the log lists
 * them to the brand's users in every organisation. Each one tied to a connection by what it
 * stores gets what the code writes since (edi/log-facility.ts): the connection's order facility
 * when the brand works there in the connection's organisation, else the brand's first facility
 * there by id; with none, no brand either (listed to nobody). The rows:
 * - a refused 850/860 set (INGEST_PURCHASE_ORDER[_CHANGE], POST): correlation_id is its
 *   interchange, edi_interchanges.connection_id its connection;
 * - a polled source's trouble (INGEST_PURCHASE_ORDER, GET): correlation_id is the connection;
 * - the send row of a 997 of no order (SEND_FUNCTIONAL_ACK): correlation_id is the document,
 *   order_documents.connection_id its connection; the document takes the facility too, so a
 *   later send of it logs there.
 * Only rows without facility and order whose brand is the connection's: brand-wide advice rows
 * and anything not tied to a connection stay as they are.
 *
 * Derived data: the count and search triggers follow an UPDATE of facility_id and brand_id. Sync
 * versions are TEMP triggers a migration does not run (sync/stamps.ts), so on a central
 * (sync_meta has its row) the changed rows' entries take one new version here, past every
 * version handed out, and the central's stamps go on from it.
 *
 * One savepoint: Kysely runs SQLite migrations without a transaction, and rows fixed without
 * their new versions would never reach the devices. Frozen (see db/migrations.ts): imports
 * nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SAVEPOINT edi_log_rows_facility`.execute(db);
  try {
    await fix(db);
    await sql`RELEASE edi_log_rows_facility`.execute(db);
  } catch (error) {
    await sql`ROLLBACK TO edi_log_rows_facility`.execute(db);
    await sql`RELEASE edi_log_rows_facility`.execute(db);
    throw error;
  }
}

async function fix(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TEMP TABLE edi_log_connection_facility AS
    SELECT c.id AS connection_id, c.brand_id AS brand_id, coalesce(
        (SELECT f.id FROM facilities f JOIN brand_facilities bf ON bf.facility_id = f.id
          WHERE f.organization_id = c.organization_id AND bf.brand_id = c.brand_id
            AND f.id = CASE WHEN json_valid(c.order_documents_json)
              AND json_type(c.order_documents_json, '$.facility_id') = 'text'
              THEN json_extract(c.order_documents_json, '$.facility_id') END),
        (SELECT f.id FROM facilities f JOIN brand_facilities bf ON bf.facility_id = f.id
          WHERE f.organization_id = c.organization_id AND bf.brand_id = c.brand_id
          ORDER BY f.id LIMIT 1)) AS facility_id
    FROM connections c`.execute(db);
  await sql`CREATE TEMP TABLE edi_log_rows_fix AS
    SELECT x.transaction_id AS transaction_id, cf.facility_id AS facility_id
    FROM (SELECT t.transaction_id, t.brand_id, CASE
          WHEN t.action_type = 'SEND_FUNCTIONAL_ACK' THEN (SELECT d.connection_id
            FROM order_documents d WHERE d.id = t.correlation_id AND d.type = '997'
              AND d.direction = 'out' AND d.order_id IS NULL)
          WHEN t.action_type = 'INGEST_PURCHASE_ORDER' AND t.request_method = 'GET'
            THEN t.correlation_id
          WHEN t.request_method = 'POST' THEN (SELECT i.connection_id
            FROM edi_interchanges i WHERE i.id = t.correlation_id)
        END AS connection_id
      FROM transactions t
      WHERE t.facility_id IS NULL AND t.order_id IS NULL AND t.brand_id IS NOT NULL
        AND t.action_type IN ('INGEST_PURCHASE_ORDER', 'INGEST_PURCHASE_ORDER_CHANGE',
          'SEND_FUNCTIONAL_ACK')) x
    JOIN temp.edi_log_connection_facility cf
      ON cf.connection_id = x.connection_id AND cf.brand_id = x.brand_id`.execute(db);
  await sql`CREATE TEMP TABLE edi_log_documents_fix AS
    SELECT d.id AS id, cf.facility_id AS facility_id
    FROM order_documents d
    JOIN temp.edi_log_connection_facility cf
      ON cf.connection_id = d.connection_id AND cf.brand_id = d.brand_id
    WHERE d.type = '997' AND d.direction = 'out' AND d.order_id IS NULL
      AND d.facility_id IS NULL AND cf.facility_id IS NOT NULL`.execute(db);
  // Read before the first stamp: one version for every row changed here.
  await sql`CREATE TEMP TABLE edi_log_version AS
    SELECT max(coalesce((SELECT max(version) FROM sync_row_versions), 0),
      coalesce((SELECT max(version) FROM sync_evictions), 0)) + 1 AS v`.execute(db);

  await sql`UPDATE transactions SET
      facility_id = (SELECT x.facility_id FROM temp.edi_log_rows_fix x
        WHERE x.transaction_id = transactions.transaction_id),
      brand_id = CASE WHEN (SELECT x.facility_id FROM temp.edi_log_rows_fix x
        WHERE x.transaction_id = transactions.transaction_id) IS NULL THEN NULL ELSE brand_id END
    WHERE transaction_id IN (SELECT transaction_id FROM temp.edi_log_rows_fix)`.execute(db);
  await sql`UPDATE order_documents SET
      facility_id = (SELECT x.facility_id FROM temp.edi_log_documents_fix x
        WHERE x.id = order_documents.id)
    WHERE id IN (SELECT id FROM temp.edi_log_documents_fix)`.execute(db);

  await sql`UPDATE sync_row_versions SET version = (SELECT v FROM temp.edi_log_version),
      facility_id = (SELECT x.facility_id FROM temp.edi_log_rows_fix x
        WHERE json_array(x.transaction_id) = sync_row_versions.row_key)
    WHERE tbl = 'transactions' AND EXISTS (SELECT 1 FROM sync_meta)
      AND row_key IN (SELECT json_array(transaction_id) FROM temp.edi_log_rows_fix)`.execute(db);
  await sql`UPDATE sync_row_versions SET version = (SELECT v FROM temp.edi_log_version)
    WHERE tbl = 'order_documents' AND EXISTS (SELECT 1 FROM sync_meta)
      AND row_key IN (SELECT json_array(id) FROM temp.edi_log_documents_fix)`.execute(db);

  await sql`DROP TABLE temp.edi_log_version`.execute(db);
  await sql`DROP TABLE temp.edi_log_documents_fix`.execute(db);
  await sql`DROP TABLE temp.edi_log_rows_fix`.execute(db);
  await sql`DROP TABLE temp.edi_log_connection_facility`.execute(db);
}
