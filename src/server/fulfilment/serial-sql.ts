import { sql, type RawBuilder } from 'kysely';

/**
 * SQLite: the SQL of SSCC serial arithmetic (./queries.ts). SQLite's two-argument scalar max()
 * and its 64-bit integer; the PostgreSQL twin is ./serial-sql.postgres.ts.
 */
export const serialSql = {
  greatest: (a: RawBuilder<unknown> | number, b: RawBuilder<unknown> | number) =>
    sql<number>`max(${a}, ${b})`,
  /** The serial reference of an SSCC column: `length` digits from `start` (1-based). */
  serialOf: (column: string, start: number, length: number) =>
    sql<number>`cast(substr(${sql.ref(column)}, ${start}, ${length}) as integer)`,
};
