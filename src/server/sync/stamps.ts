import type SQLite from 'better-sqlite3';
import type { TransactionHooks } from '../db/transaction-hooks';
import { keySql, REPLICATED_TABLES, scopeSql, type ReplicatedTable } from './synced-tables';

/**
 * The central's versions. Every unit of work (a Kysely transaction or lone statement, or one
 * pushed mutation) gets the next version the first time a replicated row changes in it; TEMP
 * triggers record that version per row in `sync_row_versions` (tombstones for deletions), so no
 * write path can skip it. Kysely runs SQLite on one connection, so versions commit in order and a
 * pull never sees version n+1 before n.
 */
export interface CentralStamps {
  /** Starts a new unit: the next change takes a new version. */
  beginUnit(): void;
  /** The version of the current unit, allocating it if nothing has been written yet. */
  currentVersion(): number;
  /** The last version handed out. */
  lastVersion(): number;
}

export function installCentralStamps(
  sqlite: SQLite.Database,
  hooks: TransactionHooks,
): CentralStamps {
  let last = (
    sqlite
      .prepare(
        `SELECT max(coalesce((SELECT max(version) FROM sync_row_versions), 0),
                    coalesce((SELECT max(version) FROM sync_evictions), 0)) AS v`,
      )
      .get() as { v: number }
  ).v;
  let current: number | null = null;
  const currentVersion = () => {
    if (current === null) {
      last += 1;
      current = last;
    }
    return current;
  };
  sqlite.function('sync_version', { deterministic: false }, currentVersion);
  for (const table of REPLICATED_TABLES) installTableStamps(sqlite, table);
  installEvictionTrigger(sqlite);
  installGrantTriggers(sqlite);
  const beginUnit = () => {
    current = null;
  };
  hooks.onAcquire = beginUnit;
  hooks.onRelease = beginUnit;
  baselineExistingRows(sqlite, currentVersion);
  return { beginUnit, currentVersion, lastVersion: () => last };
}

function installTableStamps(sqlite: SQLite.Database, table: ReplicatedTable): void {
  const t = table.name;
  const upsert = (row: 'NEW' | 'OLD', deleted: 0 | 1) => {
    const order = table.order ? scopeSql(table.order, row) : 'NULL';
    return `INSERT INTO sync_row_versions (tbl, row_key, version, deleted, facility_id, order_id, src_rowid)
      VALUES ('${t}', ${keySql(table, row)}, sync_version(), ${deleted},
              ${scopeSql(table.facility, row)}, ${order}, ${deleted ? 'NULL' : `${row}.rowid`})
      ON CONFLICT (tbl, row_key) DO UPDATE SET version = excluded.version,
        deleted = excluded.deleted, src_rowid = excluded.src_rowid,
        facility_id = coalesce(excluded.facility_id, sync_row_versions.facility_id),
        order_id = coalesce(excluded.order_id, sync_row_versions.order_id);`;
  };
  sqlite.exec(`
    CREATE TEMP TRIGGER IF NOT EXISTS sync_stamp_${t}_i AFTER INSERT ON main.${t} BEGIN
      ${upsert('NEW', 0)}
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS sync_stamp_${t}_u AFTER UPDATE ON main.${t} BEGIN
      UPDATE sync_row_versions SET version = sync_version(), deleted = 1, src_rowid = NULL
        WHERE tbl = '${t}' AND row_key = ${keySql(table, 'OLD')}
          AND ${keySql(table, 'OLD')} != ${keySql(table, 'NEW')};
      ${upsert('NEW', 0)}
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS sync_stamp_${t}_d AFTER DELETE ON main.${t} BEGIN
      ${upsert('OLD', 1)}
    END;`);
}

/** An order moving to another facility: the old facility's devices drop it, the new one's get it all. */
function installEvictionTrigger(sqlite: SQLite.Database): void {
  sqlite.exec(`
    CREATE TEMP TRIGGER IF NOT EXISTS sync_stamp_orders_moved AFTER UPDATE OF facility_id ON main.orders
    WHEN OLD.facility_id != NEW.facility_id BEGIN
      INSERT INTO sync_evictions (version, facility_id, order_id)
        VALUES (sync_version(), OLD.facility_id, NEW.id);
      UPDATE sync_row_versions SET version = sync_version(), facility_id = NEW.facility_id
        WHERE order_id = NEW.id;
    END;`);
}

/**
 * A user or brand reaches a device through grants and facility links (pull.ts): a new grant or
 * link gives the user's or brand's row a new version, so it comes down with the next pull, and so
 * do the brand's rows without a facility (prices, claims, brand-wide log rows and snapshots).
 */
function installGrantTriggers(sqlite: SQLite.Database): void {
  const touch = (tbl: string, id: string) =>
    `UPDATE sync_row_versions SET version = sync_version() WHERE tbl = '${tbl}' AND row_key = json_array(${id});`;
  const touchBrandRows = (tbl: string, rowids: string) =>
    `UPDATE sync_row_versions SET version = sync_version()
       WHERE tbl = '${tbl}' AND facility_id IS NULL AND deleted = 0 AND src_rowid IN (${rowids});`;
  const brandWide = [
    ...['billing_prices', 'billing_action_prices', 'chargebacks', 'pos_rows'].map((t) =>
      touchBrandRows(t, `SELECT rowid FROM ${t} WHERE brand_id = NEW.brand_id`),
    ),
    ...['transactions', 'advice_snapshots'].map((t) =>
      touchBrandRows(
        t,
        `SELECT rowid FROM ${t} WHERE brand_id = NEW.brand_id AND facility_id IS NULL`,
      ),
    ),
    touchBrandRows(
      'advice_deliveries',
      `SELECT d.rowid FROM advice_deliveries d JOIN advice_snapshots s ON s.id = d.snapshot_id
         WHERE s.brand_id = NEW.brand_id AND s.facility_id IS NULL`,
    ),
    touchBrandRows(
      'advice_documents',
      `SELECT x.rowid FROM advice_documents x JOIN advice_deliveries d ON d.id = x.delivery_id
         JOIN advice_snapshots s ON s.id = d.snapshot_id
         WHERE s.brand_id = NEW.brand_id AND s.facility_id IS NULL`,
    ),
  ].join('\n');
  sqlite.exec(`
    CREATE TEMP TRIGGER IF NOT EXISTS sync_grant_user_facilities AFTER INSERT ON main.user_facilities
    BEGIN ${touch('users', 'NEW.user_id')} END;
    CREATE TEMP TRIGGER IF NOT EXISTS sync_grant_user_admin AFTER INSERT ON main.user_admin
    BEGIN ${touch('users', 'NEW.user_id')} END;
    CREATE TEMP TRIGGER IF NOT EXISTS sync_grant_brand_facilities AFTER INSERT ON main.brand_facilities
    BEGIN ${touch('brands', 'NEW.brand_id')} ${brandWide} END;`);
}

/**
 * Rows written before this database served as the central (a seed, a standalone install that
 * became the central) get a version once, so a pull from 0 brings them.
 */
function baselineExistingRows(sqlite: SQLite.Database, version: () => number): void {
  const marked = sqlite.prepare(`SELECT 1 FROM sync_meta`).get();
  if (marked) {
    baselineLaterTables(sqlite, version);
    return;
  }
  sqlite.transaction(() => {
    for (const table of REPLICATED_TABLES) stampEveryRow(sqlite, table, version());
    sqlite.prepare(`INSERT INTO sync_meta (id, epoch) VALUES (1, ?)`).run(crypto.randomUUID());
  })();
}

/** Tables replicated since a later release (issue 16): not stamped by a central made before it. */
export const LATER_TABLES = new Set(['edi_interchanges', 'order_po_lines', 'order_documents']);

/**
 * A central that served before a table was replicated holds its rows without a version; they get
 * one (newer than every device's cursor) on the first start that replicates the table.
 */
function baselineLaterTables(sqlite: SQLite.Database, version: () => number): void {
  sqlite.transaction(() => {
    for (const table of REPLICATED_TABLES.filter((t) => LATER_TABLES.has(t.name))) {
      const stamped = sqlite
        .prepare(`SELECT 1 FROM sync_row_versions WHERE tbl = ? LIMIT 1`)
        .get(table.name);
      const rows = sqlite.prepare(`SELECT 1 FROM main.${table.name} LIMIT 1`).get();
      if (!stamped && rows) stampEveryRow(sqlite, table, version());
    }
  })();
}

function stampEveryRow(sqlite: SQLite.Database, table: ReplicatedTable, version: number): void {
  const order = table.order ?? 'NULL';
  sqlite
    .prepare(
      `INSERT OR IGNORE INTO sync_row_versions (tbl, row_key, version, deleted, facility_id, order_id, src_rowid)
       SELECT '${table.name}', ${keySql(table, 'R')}, ?, 0, ${table.facility}, ${order}, R.rowid
       FROM main.${table.name} R`,
    )
    .run(version);
}
