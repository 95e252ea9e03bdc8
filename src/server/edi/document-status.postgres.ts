import { sql, type RawBuilder } from 'kysely';
import { DEFAULT_ACK_HOURS, type OrderDocumentStatusValue } from '../../shared/order-documents';

/**
 * Hours past which a sent document is overdue at most: a year and more than the settings allow
 * (24 × 365), so that a hand-edited huge value cannot overflow PostgreSQL's interval arithmetic.
 */
const MAX_ACK_HOURS = 1_000_000;

/**
 * PostgreSQL twin of ./document-status.ts, the one overdue rule. The settings are read through
 * json_or_null (PostgreSQL 15 has no json_valid; a bad cast would fail the statement), once per
 * row: the OFFSET 0 keeps the planner from copying the call into each use. The stored sent_at is
 * compared as text with `now` less the hours, both ISO UTC with milliseconds as the service
 * writes them, so a hand-edited sent_at cannot fail the statement either; one that does not
 * start like an ISO time is never overdue, as julianday() reads no time in it on SQLite.
 */
export function shownStatus(now: string): RawBuilder<OrderDocumentStatusValue> {
  const ackHours = sql`(SELECT CASE WHEN jsonb_typeof(s.h) = 'number' AND s.h::numeric > 0 THEN LEAST(s.h::numeric, ${MAX_ACK_HOURS}::numeric) ELSE ${DEFAULT_ACK_HOURS}::numeric END FROM (SELECT json_or_null(c.order_documents_json) -> 'ack_hours' AS h OFFSET 0) AS s)`;
  const dueBefore = sql`to_char((${now}::timestamptz - (${ackHours})::double precision * interval '1 hour') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  return sql<OrderDocumentStatusValue>`CASE WHEN d.status = 'sent' AND d.direction = 'out' AND d.type IN ('856', '855', '810') AND d.sent_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T' THEN CASE WHEN d.sent_at COLLATE "C" < ${dueBefore} THEN 'overdue' ELSE d.status END ELSE d.status END`;
}
