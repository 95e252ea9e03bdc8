import type SQLite from 'better-sqlite3';
import type { ReplicatedTable } from './synced-tables';
import { prepared } from './columns';

export type SqlValue = string | number | bigint | Buffer | null;

/** A pushed JSON value as SQLite binds it (a device's rows hold text, numbers and nulls; anything else is stored as JSON text). */
export function bindable(value: unknown): SqlValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

export const keyWhere = (table: ReplicatedTable) => table.key.map((k) => `${k} = ?`).join(' AND ');

/**
 * Writes a row by its key: UPDATE when it exists, else INSERT. Not an UPSERT statement on
 * purpose: an outer ON CONFLICT clause overrides the `INSERT OR IGNORE` inside the billing
 * rollup triggers, which then fail on the totals row that already exists.
 */
export function writeRow(
  sqlite: SQLite.Database,
  table: ReplicatedTable,
  names: string[],
  values: SqlValue[],
  updates: string[],
): void {
  const key = table.key.map((k) => values[names.indexOf(k)] ?? null);
  const exists = prepared(sqlite, `SELECT 1 FROM ${table.name} WHERE ${keyWhere(table)}`).get(
    ...key,
  );
  if (exists) {
    if (updates.length === 0) return;
    prepared(
      sqlite,
      `UPDATE ${table.name} SET ${updates.map((c) => `${c} = ?`).join(', ')} WHERE ${keyWhere(table)}`,
    ).run(...updates.map((c) => values[names.indexOf(c)] ?? null), ...key);
    return;
  }
  prepared(
    sqlite,
    `INSERT INTO ${table.name} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
  ).run(...values);
}
