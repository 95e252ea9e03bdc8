import { sql, type RawBuilder } from 'kysely';

/**
 * PostgreSQL twin of ./ingest-sql.ts: jsonb for json_extract, through json_or_null
 * (db/postgres/migrations/0016_json_or_null) so that settings that are not JSON match nothing
 * rather than failing the statement. Every PO line here has its position (no line was stored on
 * PostgreSQL before 0016_edi_po_line_position); the line id only makes the order total.
 */
export const ingestSql = {
  ediField: (field: 'receiver_id' | 'sender_id'): RawBuilder<string> =>
    sql<string>`json_or_null(c.edi_json) ->> ${field}`,
  poLineOrder: sql`line_id` as RawBuilder<unknown>,
};
