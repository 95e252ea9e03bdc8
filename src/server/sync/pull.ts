import { createHash } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import type { PullPage, PulledChange } from './protocol';
import type { CentralStamps } from './stamps';
import { prepared } from './columns';
import { connectionRowForDevice } from './connection-credentials';
import { scopeSql } from './pull-scope-sql';

const IN_SCOPE = `IN (SELECT value FROM json_each(@scope))`;
/** An interchange concerns the devices of the facilities of the orders it made or changed. */
const INTERCHANGE_HERE = (interchange: string) =>
  `EXISTS (SELECT 1 FROM json_each(${interchange}.summary_json, '$.transaction_sets') s
    JOIN orders o ON o.id = json_extract(s.value, '$.order_id') WHERE o.facility_id ${IN_SCOPE})`;
/** The scope rules (pull-scope-sql.ts) in SQLite's SQL: `@scope` the device's facilities as JSON. */
const SCOPE = scopeSql({
  inScope: IN_SCOPE,
  key0: `json_extract(v.row_key, '$[0]')`,
  row: () => 'x.rowid = v.src_rowid',
  device: '@device',
  interchangeHere: INTERCHANGE_HERE,
  yes: '1',
  no: '0',
});
const ROWS_PER_QUERY = 500;

/**
 * The version of the scope rules (pull-scope-sql.ts). A cursor made under other rules starts over, so a device
 * that received rows the rules no longer send it drops them at its next pull: 2, before issue 18,
 * other brands' brand-wide log rows and connection credentials; 3, another organisation's inbound
 * EDI log rows, brand-wide until decision 0226 and its migration 0020_edi_log_rows_facility.
 */
const SCOPE_RULES = 3;

/** Which facilities (and rules) a cursor was made for: another set starts over (a device's scope changed). */
export function scopeTag(facilityIds: string[]): string {
  return createHash('sha256')
    .update(`${SCOPE_RULES}:${[...facilityIds].sort().join(',')}`)
    .digest('hex')
    .slice(0, 12);
}

/** `epoch:version:scope`; anything else (another epoch or scope) starts over from version 0. */
export function parseCursor(
  cursor: string | undefined,
  epoch: string,
  scope: string,
): number | null {
  if (!cursor) return null;
  const match = /^([0-9a-f-]{36}):(\d+):([0-9a-f]{12})$/.exec(cursor);
  if (!match || match[1] !== epoch || match[3] !== scope) return null;
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
  const epoch = (prepared(sqlite, `SELECT epoch FROM sync_meta`).get() as { epoch: string }).epoch;
  const tag = scopeTag(device.facilityIds);
  const from = parseCursor(cursor, epoch, tag);
  const reset = from === null;
  const after = from ?? 0;
  const scope = JSON.stringify(device.facilityIds);
  const params = { scope, device: device.id };
  const boundary = prepared(
    sqlite,
    `SELECT v.version FROM sync_row_versions v WHERE v.version > @after AND ${SCOPE}
       ORDER BY v.version LIMIT 1 OFFSET @offset`,
  ).get({ ...params, after, offset: limit - 1 }) as { version: number } | undefined;
  const upTo = boundary?.version ?? stamps.lastVersion();
  const entries = prepared(
    sqlite,
    `SELECT v.tbl, v.row_key, v.version, v.deleted, v.src_rowid FROM sync_row_versions v
       WHERE v.version > @after AND v.version <= @upTo AND ${SCOPE} ORDER BY v.version`,
  ).all({ ...params, after, upTo }) as {
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
    const select = prepared(
      sqlite,
      `SELECT rowid AS sync_rowid, * FROM ${table} WHERE rowid IN (SELECT value FROM json_each(?))`,
    );
    for (let i = 0; i < rowids.length; i += ROWS_PER_QUERY) {
      const chunk = rowids.slice(i, i + ROWS_PER_QUERY);
      for (const row of select.all(JSON.stringify(chunk)) as Record<string, unknown>[]) {
        const rowid = row.sync_rowid as number;
        delete row.sync_rowid;
        byRowid.set(rowid, table === 'connections' ? connectionRowForDevice(row) : row);
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
    : (prepared(
        sqlite,
        `SELECT version AS v, order_id FROM sync_evictions
           WHERE version > ? AND version <= ? AND facility_id IN (SELECT value FROM json_each(?))
           ORDER BY version`,
      ).all(after, upTo, scope) as { v: number; order_id: string }[]);
  const more =
    boundary !== undefined &&
    prepared(
      sqlite,
      `SELECT 1 FROM sync_row_versions v WHERE v.version > @upTo AND ${SCOPE} LIMIT 1`,
    ).get({ ...params, upTo }) !== undefined;
  const lastSeq =
    (
      prepared(sqlite, `SELECT last_seq FROM sync_clients WHERE client_id = ?`).get(device.id) as
        { last_seq: number } | undefined
    )?.last_seq ?? 0;
  return {
    epoch,
    reset,
    cursor: `${epoch}:${upTo}:${tag}`,
    more,
    last_seq: lastSeq,
    changes,
    evictions,
  };
}
