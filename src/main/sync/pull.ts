import type SQLite from 'better-sqlite3';
import type { PullPage, PulledChange } from './protocol';
import type { CentralStamps } from './stamps';

const SCOPE = `(facility_id IS NULL OR facility_id IN (SELECT value FROM json_each(?)))`;
const ROWS_PER_QUERY = 500;

/** `epoch:version`; anything else (or another epoch) starts over from version 0. */
export function parseCursor(cursor: string | undefined, epoch: string): number | null {
  if (!cursor) return null;
  const match = /^([0-9a-f-]{36}):(\d+)$/.exec(cursor);
  if (!match || match[1] !== epoch) return null;
  return Number(match[2]);
}

/**
 * The changes after `cursor` within the device's facilities, about `limit` rows, ending at a
 * version boundary (a central transaction is never split across pages). Run while holding
 * Kysely's connection, so no write is half-way through.
 */
export function buildPullPage(
  sqlite: SQLite.Database,
  stamps: CentralStamps,
  device: { id: string; facilityIds: string[] },
  cursor: string | undefined,
  limit: number,
): PullPage {
  const epoch = (sqlite.prepare(`SELECT epoch FROM sync_meta`).get() as { epoch: string }).epoch;
  const from = parseCursor(cursor, epoch);
  const reset = from === null;
  const after = from ?? 0;
  const scope = JSON.stringify(device.facilityIds);
  const boundary = sqlite
    .prepare(
      `SELECT version FROM sync_row_versions WHERE version > ? AND ${SCOPE}
       ORDER BY version LIMIT 1 OFFSET ?`,
    )
    .get(after, scope, limit - 1) as { version: number } | undefined;
  const upTo = boundary?.version ?? stamps.lastVersion();
  const entries = sqlite
    .prepare(
      `SELECT tbl, row_key, version, deleted, src_rowid FROM sync_row_versions
       WHERE version > ? AND version <= ? AND ${SCOPE} ORDER BY version`,
    )
    .all(after, upTo, scope) as {
    tbl: string;
    row_key: string;
    version: number;
    deleted: number;
    src_rowid: number | null;
  }[];
  const live = new Map<string, number[]>();
  for (const entry of entries) {
    if (entry.deleted || entry.src_rowid === null) continue;
    const list = live.get(entry.tbl) ?? [];
    list.push(entry.src_rowid);
    live.set(entry.tbl, list);
  }
  const rows = new Map<string, Map<number, Record<string, unknown>>>();
  for (const [table, rowids] of live) {
    const byRowid = new Map<number, Record<string, unknown>>();
    const select = sqlite.prepare(
      `SELECT rowid AS sync_rowid, * FROM ${table} WHERE rowid IN (SELECT value FROM json_each(?))`,
    );
    for (let i = 0; i < rowids.length; i += ROWS_PER_QUERY) {
      const chunk = rowids.slice(i, i + ROWS_PER_QUERY);
      for (const row of select.all(JSON.stringify(chunk)) as Record<string, unknown>[]) {
        const rowid = row.sync_rowid as number;
        delete row.sync_rowid;
        byRowid.set(rowid, row);
      }
    }
    rows.set(table, byRowid);
  }
  const changes: PulledChange[] = [];
  for (const entry of entries) {
    const row = entry.deleted ? undefined : rows.get(entry.tbl)?.get(entry.src_rowid!);
    const k = JSON.parse(entry.row_key) as unknown[];
    if (row) changes.push({ t: entry.tbl, k, v: entry.version, row });
    // A first pull starts from nothing, so it needs no tombstones.
    else if (!reset) changes.push({ t: entry.tbl, k, v: entry.version, deleted: true });
  }
  const evictions = reset
    ? []
    : (sqlite
        .prepare(
          `SELECT version AS v, order_id FROM sync_evictions
           WHERE version > ? AND version <= ? AND facility_id IN (SELECT value FROM json_each(?))
           ORDER BY version`,
        )
        .all(after, upTo, scope) as { v: number; order_id: string }[]);
  const more =
    boundary !== undefined &&
    sqlite
      .prepare(`SELECT 1 FROM sync_row_versions WHERE version > ? AND ${SCOPE} LIMIT 1`)
      .get(upTo, scope) !== undefined;
  const lastSeq =
    (
      sqlite.prepare(`SELECT last_seq FROM sync_clients WHERE client_id = ?`).get(device.id) as
        { last_seq: number } | undefined
    )?.last_seq ?? 0;
  return {
    epoch,
    reset,
    cursor: `${epoch}:${upTo}`,
    more,
    last_seq: lastSeq,
    changes,
    evictions,
  };
}
