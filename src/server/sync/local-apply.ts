import type SQLite from 'better-sqlite3';
import { sealTransportJson } from '../core/secret-box';
import { sealOrderDocumentsJson } from '../core/sealed-order-documents';
import type { ChangeCapture } from './capture';
import { columnsOf, prepared } from './columns';
import type { PullPage, PulledChange } from './protocol';
import { keyWhere, type SqlValue, writeRow } from './rows';
import { REPLICATED_BY_NAME, REPLICATED_TABLES, type ReplicatedTable } from './synced-tables';

export type PageOutcome = { applied: number } | { skipped: 'unpushed local changes' };

/**
 * Applies one pull page and stores its cursor in one transaction. Nothing is applied over local
 * mutations not yet pushed (the loop pushes first and comes back). Foreign keys are off while
 * applying: a page holds rows in version order, so a child may come before the row it refers to,
 * and the central sends a tombstone for every row its cascades deleted. Run while holding
 * Kysely's connection.
 */
export function applyPullPage(
  sqlite: SQLite.Database,
  capture: ChangeCapture,
  deviceId: string,
  page: PullPage,
  at: string,
): PageOutcome {
  capture.foldLeftovers();
  const pending = prepared(
    sqlite,
    `SELECT 1 FROM sync_mutations m JOIN sync_state s ON s.id = 1
       WHERE m.client_id = ? AND m.seq > s.acked_seq LIMIT 1`,
  ).get(deviceId);
  if (pending) return { skipped: 'unpushed local changes' };
  sqlite.pragma('foreign_keys = OFF');
  try {
    return capture.paused(() =>
      sqlite.transaction(() => {
        if (page.reset) clearReplicatedRows(sqlite);
        const evictions = [...page.evictions];
        for (const change of page.changes) {
          while (evictions.length > 0 && evictions[0]!.v <= change.v) {
            dropOrder(sqlite, evictions.shift()!.order_id);
          }
          applyChange(sqlite, change);
        }
        for (const eviction of evictions) dropOrder(sqlite, eviction.order_id);
        prepared(sqlite, `UPDATE sync_state SET cursor = ?, last_pull_at = ? WHERE id = 1`).run(
          page.cursor,
          at,
        );
        return { applied: page.changes.length };
      })(),
    );
  } finally {
    sqlite.pragma('foreign_keys = ON');
  }
}

function clearReplicatedRows(sqlite: SQLite.Database): void {
  for (const table of [...REPLICATED_TABLES].reverse()) {
    for (const child of cascadeChildren(sqlite, table.name))
      sqlite.exec(`DELETE FROM ${child.table}`);
    sqlite.exec(`DELETE FROM ${table.name}`);
  }
  sqlite.exec(`DELETE FROM sync_row_versions`);
}

interface CascadeChild {
  table: string;
  /** The child's column and the parent's column it refers to. */
  from: string;
  to: string;
}
const childCache = new WeakMap<SQLite.Database, Map<string, CascadeChild[]>>();

/** Tables whose rows go with a row of `parent` (ON DELETE CASCADE), e.g. the billing totals. */
function cascadeChildren(sqlite: SQLite.Database, parent: string): CascadeChild[] {
  let byParent = childCache.get(sqlite);
  if (!byParent) {
    byParent = new Map();
    const tables = prepared(
      sqlite,
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
    ).all() as { name: string }[];
    for (const { name } of tables) {
      const keys = prepared(sqlite, `PRAGMA foreign_key_list(${name})`).all() as {
        table: string;
        from: string;
        to: string | null;
        on_delete: string;
      }[];
      for (const key of keys.filter((k) => k.on_delete === 'CASCADE')) {
        const list = byParent.get(key.table) ?? [];
        list.push({ table: name, from: key.from, to: key.to ?? 'id' });
        byParent.set(key.table, list);
      }
    }
    childCache.set(sqlite, byParent);
  }
  return byParent.get(parent) ?? [];
}

/**
 * Deletes rows with foreign keys off, doing the cascades SQLite would have done (derived tables
 * such as the billing totals have no tombstones of their own).
 */
function deleteRows(
  sqlite: SQLite.Database,
  table: string,
  where: string,
  values: unknown[],
): void {
  for (const child of cascadeChildren(sqlite, table)) {
    const parents = prepared(sqlite, `SELECT ${child.to} AS v FROM ${table} WHERE ${where}`).all(
      ...values,
    ) as { v: unknown }[];
    for (const { v } of parents) deleteRows(sqlite, child.table, `${child.from} = ?`, [v]);
  }
  prepared(sqlite, `DELETE FROM ${table} WHERE ${where}`).run(...values);
}

/** The order moved to a facility this workstation does not serve. */
function dropOrder(sqlite: SQLite.Database, orderId: string): void {
  prepared(
    sqlite,
    `DELETE FROM carton_skus WHERE carton_id IN (SELECT id FROM cartons WHERE order_id = ?)`,
  ).run(orderId);
  for (const table of [
    'cartons',
    'pallets',
    'order_items',
    'order_activity',
    'order_bol_versions',
  ]) {
    prepared(sqlite, `DELETE FROM ${table} WHERE order_id = ?`).run(orderId);
  }
  prepared(sqlite, `DELETE FROM orders WHERE id = ?`).run(orderId);
  prepared(sqlite, `DELETE FROM sync_row_versions WHERE order_id = ?`).run(orderId);
}

function applyChange(sqlite: SQLite.Database, change: PulledChange): void {
  const table = REPLICATED_BY_NAME.get(change.t);
  if (!table) return; // a table this build does not know (protocol versions keep this rare)
  const key = change.k as (string | number | null)[];
  const rowKey = JSON.stringify(change.k);
  if (change.deleted || !change.row) {
    deleteRows(sqlite, table.name, keyWhere(table), key);
    prepared(
      sqlite,
      `INSERT INTO sync_row_versions (tbl, row_key, version, deleted) VALUES (?, ?, ?, 1)
         ON CONFLICT (tbl, row_key) DO UPDATE SET version = excluded.version, deleted = 1`,
    ).run(table.name, rowKey, change.v);
    return;
  }
  upsertRow(
    sqlite,
    table,
    table.name === 'connections' ? sealedConnection(change.row) : change.row,
  );
  const orderId = table.name === 'orders' ? change.row.id : change.row.order_id;
  prepared(
    sqlite,
    `INSERT INTO sync_row_versions (tbl, row_key, version, deleted, order_id) VALUES (?, ?, ?, 0, ?)
       ON CONFLICT (tbl, row_key) DO UPDATE SET version = excluded.version, deleted = 0,
         order_id = excluded.order_id`,
  ).run(table.name, rowKey, change.v, typeof orderId === 'string' ? orderId : null);
}

/** A pulled connection with its credentials sealed for the desktop (domain/secret-box.ts). */
function sealedConnection(row: Record<string, unknown>): Record<string, unknown> {
  const sealed = { ...row };
  if (typeof row.transport_json === 'string') {
    sealed.transport_json = sealTransportJson(row.transport_json);
  }
  if (typeof row.order_documents_json === 'string') {
    sealed.order_documents_json = sealOrderDocumentsJson(row.order_documents_json);
  }
  return sealed;
}

/**
 * Insert or update by key. A row may collide with a local row on another unique index (a
 * picksheet code that moved between two orders at versions on both sides of this page): the
 * local row gives way, and its own newer version follows later in the same pull.
 */
function upsertRow(sqlite: SQLite.Database, table: ReplicatedTable, row: Record<string, unknown>) {
  const names = columnsOf(sqlite, table.name).filter((c) => c in row);
  const updates = names.filter((c) => !table.key.includes(c) && !table.local?.includes(c));
  const values = names.map((c) => row[c] as SqlValue);
  for (let attempt = 0; ; attempt += 1) {
    try {
      writeRow(sqlite, table, names, values, updates);
      return;
    } catch (error) {
      const columns = uniqueColumns(error, table.name);
      if (!columns || attempt >= 3) throw error;
      deleteRows(
        sqlite,
        table.name,
        columns.map((c) => `${c} IS ?`).join(' AND '),
        columns.map((c) => row[c] as string | number | null),
      );
    }
  }
}

function uniqueColumns(error: unknown, table: string): string[] | null {
  if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_UNIQUE') return null;
  const match = /UNIQUE constraint failed: (.+)$/.exec((error as Error).message);
  if (!match) return null;
  const columns = match[1]!.split(',').map((part) => part.trim().replace(`${table}.`, ''));
  return columns.every((c) => /^\w+$/.test(c)) ? columns : null;
}
