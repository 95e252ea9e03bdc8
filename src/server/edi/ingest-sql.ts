import { sql, type RawBuilder } from 'kysely';

/**
 * SQLite: the engine-bound SQL of the inbound path's queries (./ingest-queries.ts). The
 * PostgreSQL twin is ./ingest-sql.postgres.ts.
 */
export const ingestSql = {
  /** A field of the connection's EDI settings (`c.edi_json`). */
  ediField: (field: 'receiver_id' | 'sender_id'): RawBuilder<string> =>
    sql<string>`json_extract(c.edi_json, ${`$.${field}`})`,
  /** After their position: PO lines stored before they had one keep the order of their insert. */
  poLineOrder: sql`rowid` as RawBuilder<unknown>,
};
