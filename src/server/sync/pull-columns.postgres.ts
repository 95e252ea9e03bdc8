import { REPLICATED_TABLES } from './synced-tables';

/*
 * A PostgreSQL central has columns of its own that no workstation has: generated ones
 * (transactions.search_key, PostgreSQL-only migration 0018_transactions_search_key). A pull sends
 * a row as SQLite's central would, without them, so for such a table the pull names the columns
 * it sends instead of taking the whole row.
 */

type Query = <R>(text: string, parameters: unknown[]) => Promise<R[]>;

/** The columns sent of each replicated table that has a generated column, in table order. */
export type SentColumns = ReadonlyMap<string, readonly string[]>;

/**
 * Every database a process opens has the schema of the migrations it applied at start (as
 * apply-sql-postgres.ts's column cache), so the answer is asked once per process.
 */
let sent: Promise<SentColumns> | undefined;

export function sentColumns(query: Query): Promise<SentColumns> {
  sent ??= query<{ tbl: string; columns: string[] }>(
    `SELECT table_name::text AS tbl,
       array_agg(column_name::text ORDER BY ordinal_position)
         FILTER (WHERE is_generated = 'NEVER') AS columns
     FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ANY($1::text[])
     GROUP BY table_name HAVING bool_or(is_generated <> 'NEVER')`,
    [REPLICATED_TABLES.map((t) => t.name)],
  ).then(
    (rows) => new Map(rows.map((r) => [r.tbl, r.columns])),
    (error: unknown) => {
      sent = undefined; // asked again by the next pull
      throw error;
    },
  );
  return sent;
}

/** `alias.*` of a table, or its sent columns when it has some of the central's own. */
export function selectedColumns(columns: SentColumns, table: string, alias: string): string {
  const list = columns.get(table);
  return list ? list.map((c) => `${alias}."${c}"`).join(', ') : `${alias}.*`;
}
