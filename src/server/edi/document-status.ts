import { sql, type RawBuilder } from 'kysely';
import { DEFAULT_ACK_HOURS, type OrderDocumentStatusValue } from '../../shared/order-documents';

/**
 * The one overdue rule (DESIGN.md, "Acknowledgments"): an outbound 855, 856 or 810 that was sent
 * and no 997 answered within its connection's `order_documents.ack_hours` is shown as overdue.
 * Written in SQL so that lists can filter, count and page by it; every query that shows a
 * document's status uses this expression over `order_documents as d` left-joined to
 * `connections as c`. Settings that are missing or not a positive number fall back to the default,
 * much as orderDocumentSettingsOf treats unreadable settings.
 */
export function shownStatus(now: string): RawBuilder<OrderDocumentStatusValue> {
  const settings = sql.ref('c.order_documents_json');
  const ackHours = sql`CASE WHEN json_valid(${settings}) AND json_type(${settings}, '$.ack_hours') IN ('integer', 'real') AND json_extract(${settings}, '$.ack_hours') > 0 THEN json_extract(${settings}, '$.ack_hours') ELSE ${DEFAULT_ACK_HOURS} END`;
  return sql<OrderDocumentStatusValue>`CASE WHEN d.status = 'sent' AND d.direction = 'out' AND d.type IN ('856', '855', '810') AND d.sent_at IS NOT NULL AND julianday(d.sent_at) + (${ackHours}) / 24.0 < julianday(${now}) THEN 'overdue' ELSE d.status END`;
}
