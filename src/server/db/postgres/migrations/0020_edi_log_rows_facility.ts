import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL twin of edi/migrations/0020_edi_log_rows_facility: the inbound path's log rows
 * written before decision 0226 (a refused 850/860 set, a polled source's trouble, the send row of
 * a 997 of no order), tied to their connection by what they store, take a facility of the
 * connection's organisation as edi/log-facility.ts picks it (else no brand), and the 997
 * documents of no order take it too. The count triggers follow an UPDATE of facility_id and
 * brand_id, and on a central the stamping triggers give the changed rows new versions
 * (0017_sync_stamps), so nothing else is kept by hand here. The connection's settings are read
 * through json_or_null (0016_json_or_null): a hand-edited value that is not JSON names no order
 * facility, as edi/settings.ts reads it.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */

// Each statement spells out connection_facility: a frozen migration's SQL is literal.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`WITH connection_facility AS (
    SELECT c.id AS connection_id, c.brand_id AS brand_id, coalesce(
        (SELECT f.id FROM facilities f JOIN brand_facilities bf ON bf.facility_id = f.id
          WHERE f.organization_id = c.organization_id AND bf.brand_id = c.brand_id
            AND f.id = CASE
              WHEN jsonb_typeof(json_or_null(c.order_documents_json) -> 'facility_id') = 'string'
              THEN json_or_null(c.order_documents_json) ->> 'facility_id' END),
        (SELECT f.id FROM facilities f JOIN brand_facilities bf ON bf.facility_id = f.id
          WHERE f.organization_id = c.organization_id AND bf.brand_id = c.brand_id
          ORDER BY f.id LIMIT 1)) AS facility_id
    FROM connections c)
    UPDATE transactions t SET facility_id = cf.facility_id,
      brand_id = CASE WHEN cf.facility_id IS NULL THEN NULL ELSE t.brand_id END
    FROM (SELECT s.transaction_id, s.brand_id, CASE
          WHEN s.action_type = 'SEND_FUNCTIONAL_ACK' THEN (SELECT d.connection_id
            FROM order_documents d WHERE d.id = s.correlation_id AND d.type = '997'
              AND d.direction = 'out' AND d.order_id IS NULL)
          WHEN s.action_type = 'INGEST_PURCHASE_ORDER' AND s.request_method = 'GET'
            THEN s.correlation_id
          WHEN s.request_method = 'POST' THEN (SELECT i.connection_id
            FROM edi_interchanges i WHERE i.id = s.correlation_id)
        END AS connection_id
      FROM transactions s
      WHERE s.facility_id IS NULL AND s.order_id IS NULL AND s.brand_id IS NOT NULL
        AND s.action_type IN ('INGEST_PURCHASE_ORDER', 'INGEST_PURCHASE_ORDER_CHANGE',
          'SEND_FUNCTIONAL_ACK')) x
    JOIN connection_facility cf
      ON cf.connection_id = x.connection_id AND cf.brand_id = x.brand_id
    WHERE t.transaction_id = x.transaction_id`.execute(db);
  await sql`WITH connection_facility AS (
    SELECT c.id AS connection_id, c.brand_id AS brand_id, coalesce(
        (SELECT f.id FROM facilities f JOIN brand_facilities bf ON bf.facility_id = f.id
          WHERE f.organization_id = c.organization_id AND bf.brand_id = c.brand_id
            AND f.id = CASE
              WHEN jsonb_typeof(json_or_null(c.order_documents_json) -> 'facility_id') = 'string'
              THEN json_or_null(c.order_documents_json) ->> 'facility_id' END),
        (SELECT f.id FROM facilities f JOIN brand_facilities bf ON bf.facility_id = f.id
          WHERE f.organization_id = c.organization_id AND bf.brand_id = c.brand_id
          ORDER BY f.id LIMIT 1)) AS facility_id
    FROM connections c)
    UPDATE order_documents d SET facility_id = cf.facility_id
    FROM connection_facility cf
    WHERE cf.connection_id = d.connection_id AND cf.brand_id = d.brand_id
      AND d.type = '997' AND d.direction = 'out' AND d.order_id IS NULL
      AND d.facility_id IS NULL AND cf.facility_id IS NOT NULL`.execute(db);
}
