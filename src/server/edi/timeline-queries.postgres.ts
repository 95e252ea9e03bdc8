/**
 * PostgreSQL twin of ./timeline-queries.ts: jsonb for SQLite's json_each and json_extract, read
 * through json_or_null (db/postgres/migrations/0016_json_or_null) where SQLite guards with
 * json_valid, so a row that is not JSON is passed over rather than failing the statement.
 */
import { sql } from 'kysely';
import type { Db } from '../db/db';
import { receivedFromFor, type InboundSetRow } from './timeline-queries';

/** As ./timeline-queries.ts; a summary whose transaction_sets is no array names no set. */
export async function listInboundSetsOfOrder(
  db: Db,
  order: { id: string; brand_id: string; created_at: string },
): Promise<InboundSetRow[]> {
  const result = await sql<InboundSetRow>`
    SELECT i.id AS interchange_id, i.control_number AS interchange_control_number,
           i.received_at, s.value::text AS set_json
    FROM edi_interchanges i
    CROSS JOIN LATERAL (SELECT json_or_null(i.summary_json) -> 'transaction_sets' AS sets) j
    CROSS JOIN LATERAL jsonb_array_elements(
           CASE WHEN jsonb_typeof(j.sets) = 'array' THEN j.sets ELSE '[]'::jsonb END)
         WITH ORDINALITY AS s(value, key)
    WHERE i.brand_id = ${order.brand_id}
      AND i.received_at >= ${receivedFromFor(order)}
      AND s.value ->> 'order_id' = ${order.id}
      AND s.value ->> 'type' IN ('850', '860')
    ORDER BY i.received_at, i.id, s.key`.execute(db);
  return result.rows;
}
