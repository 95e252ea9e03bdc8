import type { Kysely } from 'kysely';
import { executeRaw } from '../db/raw-query';
import type { Database } from '../db/schema';

type Row<Column extends string> = Record<Column, string | number | null>;

const statements = new Map<string, string>();

/**
 * Inserts rows with one statement whose SQL text is built once per table, columns and row count.
 * Kysely's builder makes and compiles a node per value (8 log rows: 160 nodes), which cost more
 * CPU than SQLite's insert itself on the advice path. Table and columns are constants of the
 * caller, never input; every value is a bound parameter.
 */
export async function insertRows<Column extends string>(
  db: Kysely<Database>,
  table: keyof Database,
  columns: readonly Column[],
  rows: readonly Row<Column>[],
): Promise<void> {
  if (rows.length === 0) return;
  const key = `${table}(${columns.join(',')})x${rows.length}`;
  let text = statements.get(key);
  if (text === undefined) {
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    text =
      `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ` +
      Array.from({ length: rows.length }, () => tuple).join(', ');
    statements.set(key, text);
  }
  const parameters: (string | number | null)[] = [];
  for (const row of rows) {
    for (const column of columns) parameters.push(row[column] ?? null);
  }
  await executeRaw(db, text, parameters);
}
