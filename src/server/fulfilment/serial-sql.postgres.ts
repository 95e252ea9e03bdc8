import { sql, type RawBuilder } from 'kysely';

/**
 * PostgreSQL twin of ./serial-sql.ts: GREATEST for SQLite's scalar max(), bigint for its 64-bit
 * integer (a 10-digit serial overflows PostgreSQL's integer), and typed parameters.
 */
export const serialSql = {
  greatest: (a: RawBuilder<unknown> | number, b: RawBuilder<unknown> | number) =>
    sql<number>`GREATEST(${a}::bigint, ${b}::bigint)`,
  serialOf: (column: string, start: number, length: number) =>
    sql<number>`cast(substr(${sql.ref(column)}, ${start}::int, ${length}::int) as bigint)`,
};
