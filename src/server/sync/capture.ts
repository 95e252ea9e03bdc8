import type SQLite from 'better-sqlite3';
import type { TransactionHooks } from '../db/transaction-hooks';
import { columnsOf } from './columns';
import { keySql, REPLICATED_TABLES, scopeSql } from './synced-tables';

/**
 * A workstation's change capture. TEMP triggers on every pushed table copy each written row
 * (before and after) into `sync_capture` inside the writing statement, so no command can forget
 * it; just before COMMIT the rows become one mutation in `sync_mutations`, in the same
 * transaction as the write. Pulled rows are applied with capture paused.
 */
export interface ChangeCapture {
  /** Runs `apply` with capture paused (rows from the central are not local changes). */
  paused<T>(apply: () => T): T;
  /** Folds rows a lone statement (outside a transaction) left; the loop calls it before a push. */
  foldLeftovers(): void;
  /** The seq the next mutation gets. */
  nextSeq(): number;
}

export function installChangeCapture(
  sqlite: SQLite.Database,
  hooks: TransactionHooks,
  deviceId: string,
  now: () => Date,
  onMutation: () => void,
): ChangeCapture {
  let capturing = true;
  let dirty = false;
  sqlite.function('sync_capturing', { deterministic: false }, () => {
    if (!capturing) return 0;
    dirty = true;
    return 1;
  });
  for (const table of REPLICATED_TABLES.filter((t) => t.pushed)) {
    const columns = columnsOf(sqlite, table.name);
    const image = (row: 'NEW' | 'OLD') =>
      `json_object(${columns.map((c) => `'${c}', ${row}.${c}`).join(', ')})`;
    const key = (row: 'NEW' | 'OLD') => keySql(table, row);
    const baseVersion = `(SELECT v.version FROM sync_row_versions v WHERE v.tbl = '${table.name}' AND v.row_key = ${key('OLD')})`;
    const t = table.name;
    const pushedInsert = table.pushedWhere ? `(${scopeSql(table.pushedWhere, 'NEW')}) AND ` : '';
    sqlite.exec(`
      CREATE TEMP TRIGGER IF NOT EXISTS sync_capture_${t}_i AFTER INSERT ON main.${t}
      WHEN ${pushedInsert}sync_capturing() BEGIN
        INSERT INTO sync_capture (tbl, op, row_key, new_json)
        VALUES ('${t}', 'I', ${key('NEW')}, ${image('NEW')});
      END;
      CREATE TEMP TRIGGER IF NOT EXISTS sync_capture_${t}_u AFTER UPDATE ON main.${t}
      WHEN sync_capturing() BEGIN
        INSERT INTO sync_capture (tbl, op, row_key, old_json, new_json, base_version)
        VALUES ('${t}', 'U', ${key('OLD')}, ${image('OLD')}, ${image('NEW')}, ${baseVersion});
      END;
      CREATE TEMP TRIGGER IF NOT EXISTS sync_capture_${t}_d AFTER DELETE ON main.${t}
      WHEN sync_capturing() BEGIN
        INSERT INTO sync_capture (tbl, op, row_key, old_json, base_version)
        VALUES ('${t}', 'D', ${key('OLD')}, ${image('OLD')}, ${baseVersion});
      END;`);
  }

  const transactionName = sqlite.prepare(
    `SELECT json_extract(new_json, '$.action_type') AS name FROM sync_capture
     WHERE tbl = 'transactions' AND op = 'I' ORDER BY id LIMIT 1`,
  );
  const firstChange = sqlite.prepare(`SELECT tbl, op FROM sync_capture ORDER BY id LIMIT 1`);
  const insertMutation = sqlite.prepare(
    `INSERT INTO sync_mutations (client_id, seq, name, args, base_version, at)
     SELECT ?, ?, ?, json_object('changes', json_group_array(json_object(
       't', tbl, 'op', op, 'k', json(row_key), 'old', json(old_json), 'new', json(new_json),
       'v', base_version))), max(base_version), ?
     FROM (SELECT * FROM sync_capture ORDER BY id)`,
  );
  const clearCapture = sqlite.prepare(`DELETE FROM sync_capture`);
  // Pushed mutations are pruned after a while (client.ts): acked_seq keeps the count going.
  const lastSeq = sqlite.prepare(
    `SELECT max(coalesce((SELECT max(seq) FROM sync_mutations WHERE client_id = ?), 0),
                coalesce((SELECT acked_seq FROM sync_state WHERE id = 1), 0)) AS seq`,
  );
  let next = (lastSeq.get(deviceId) as { seq: number }).seq + 1;
  const opNames = { I: 'insert', U: 'update', D: 'delete' } as Record<string, string>;

  /** Turns the captured rows into mutation `next`; runs inside the open transaction. */
  function fold(): boolean {
    if (!dirty) return false;
    dirty = false;
    const first = firstChange.get() as { tbl: string; op: string } | undefined;
    if (!first) return false;
    const named = transactionName.get() as { name: string | null } | undefined;
    const name = named?.name ?? `${first.tbl}.${opNames[first.op] ?? first.op}`;
    insertMutation.run(deviceId, next, name, now().toISOString());
    clearCapture.run();
    next += 1;
    return true;
  }

  let folded = false;
  hooks.beforeCommit = () => {
    folded = fold() || folded;
  };
  hooks.afterRollback = () => {
    dirty = false;
    next = (lastSeq.get(deviceId) as { seq: number }).seq + 1;
  };
  hooks.onRelease = () => {
    // A lone statement commits by itself; fold what it captured in a transaction of its own.
    if (dirty && !sqlite.inTransaction) foldLeftovers();
    if (folded) {
      folded = false;
      onMutation();
    }
  };

  function foldLeftovers(): void {
    dirty = true;
    if (sqlite.transaction(fold).immediate()) folded = true;
  }

  return {
    paused<T>(apply: () => T): T {
      capturing = false;
      try {
        return apply();
      } finally {
        capturing = true;
      }
    },
    foldLeftovers,
    nextSeq: () => next,
  };
}
