import type SQLite from 'better-sqlite3';
import type { ApplySql } from './apply-sql';
import { columnsOf, prepared } from './columns';
import { MISSING_REFERENCE, PICKSHEET_TAKEN, Refusal, SSCC_TAKEN } from './refusal';
import { keyWhere, type SqlValue } from './rows';
import type { CentralStamps } from './stamps';

/**
 * The apply port on the raw better-sqlite3 handle, with its cached prepared statements. The
 * caller holds Kysely's one connection (db.connection()) for as long as it uses it: the promises
 * resolve at once, so no other request's statements run between BEGIN and COMMIT. `stamps` is
 * null where nothing is stamped (a workstation's conflict rules).
 */
export function sqliteApplySql(sqlite: SQLite.Database, stamps: CentralStamps | null): ApplySql {
  const currentVersion = () => {
    if (!stamps) throw new Error('No version stamps on this replica');
    return stamps.currentVersion();
  };
  return {
    batch: Number.POSITIVE_INFINITY,
    optimistic: false,
    get: async <T>(text: string, params: readonly SqlValue[] = []) =>
      prepared(sqlite, text).get(...params) as T | undefined,
    run: async (text, params = []) => prepared(sqlite, text).run(...params).changes,
    begin: async () => {
      sqlite.exec('BEGIN');
    },
    exec: async (text) => {
      sqlite.exec(text);
    },
    columnsOf: async (table) => columnsOf(sqlite, table),
    forUpdate: '',
    rowOf: (_table, columns, values) => ({
      from: `(SELECT ${columns.map((c) => `? AS ${c}`).join(', ')})`,
      params: values,
    }),
    beginUnit: () => stamps?.beginUnit(),
    version: async () => currentVersion(),
    restamp: async (table, key) => {
      const rowKey = JSON.stringify(key);
      prepared(
        sqlite,
        `INSERT INTO sync_row_versions (tbl, row_key, version, deleted, src_rowid) VALUES (?, ?, sync_version(), 1, NULL)
         ON CONFLICT (tbl, row_key) DO UPDATE SET version = excluded.version`,
      ).run(table.name, rowKey);
      const exists = prepared(
        sqlite,
        `SELECT rowid AS r FROM ${table.name} WHERE ${keyWhere(table)}`,
      ).get(...key) as { r: number } | undefined;
      prepared(
        sqlite,
        `UPDATE sync_row_versions SET deleted = ?, src_rowid = ? WHERE tbl = ? AND row_key = ?`,
      ).run(exists ? 0 : 1, exists?.r ?? null, table.name, rowKey);
    },
    refusalOf: sqliteRefusal,
    retryable: () => false,
  };
}

/** SQLITE_CONSTRAINT_* are permanent (the same rows fail the same way); anything else is not. */
function sqliteRefusal(error: unknown): Refusal | null {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_CONSTRAINT')) return null;
  const message = (error as Error).message;
  if (message.includes('orders.facility_id, orders.picksheet_code')) return PICKSHEET_TAKEN();
  if (/cartons\.sscc|pallets\.sscc/.test(message)) return SSCC_TAKEN();
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return MISSING_REFERENCE();
  return new Refusal(`The central service refused it: ${message}`);
}
