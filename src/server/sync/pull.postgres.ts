import { CompiledQuery, type Transaction } from 'kysely';
import type { Db } from '../db/db';
import type { Database } from '../db/schema';
import type { PullPage, PulledChange } from './protocol';
import { parseCursor, scopeTag } from './pull';
import { connectionRowForDevice } from './connection-credentials';
import { postgresKeySql, REPLICATED_BY_NAME } from './synced-tables';

/*
 * PostgreSQL twin of pull.ts. Versions come from a sequence and commit out of order, so a page
 * serves only rows written by transactions older than the snapshot's xmin (none of them can still
 * commit): a window of writing transactions [low, high), read in version order, pages ending at a
 * version boundary (docs/sync.md, "A central on PostgreSQL"). The scope rules are pull.ts's, in
 * PostgreSQL's SQL: $1 is the device's facilities, $2 the device.
 */
const IN_SCOPE = `= ANY($1::text[])`;
const KEY0 = `(v.row_key::jsonb->>0)`;
const BRAND_HERE = (brand: string) =>
  `EXISTS (SELECT 1 FROM brand_facilities b WHERE b.brand_id = ${brand} AND b.facility_id ${IN_SCOPE})`;
/** The row of table `tbl` (as `x`) that the version entry `v` names (pull.ts: `x.rowid = v.src_rowid`). */
const ROW = (tbl: string) =>
  REPLICATED_BY_NAME.get(tbl)!
    .key.map((k, i) => `x.${k}::text = (v.row_key::jsonb->>${i})`)
    .join(' AND ');
const INTERCHANGE_HERE = (interchange: string) =>
  `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE
      WHEN jsonb_typeof(${interchange}.summary_json::jsonb->'transaction_sets') = 'array'
      THEN ${interchange}.summary_json::jsonb->'transaction_sets' ELSE '[]'::jsonb END) s(value)
    JOIN orders o ON o.id = s.value->>'order_id' WHERE o.facility_id ${IN_SCOPE})`;
const SCOPE = `(v.facility_id ${IN_SCOPE} OR (v.facility_id IS NULL AND (v.deleted = 1 OR CASE v.tbl
  WHEN 'users' THEN
    EXISTS (SELECT 1 FROM user_facilities g WHERE g.user_id = ${KEY0} AND g.facility_id ${IN_SCOPE})
    OR EXISTS (SELECT 1 FROM user_admin g WHERE g.user_id = ${KEY0} AND g.facility_id ${IN_SCOPE})
  WHEN 'organizations' THEN
    EXISTS (SELECT 1 FROM facilities f WHERE f.organization_id = ${KEY0} AND f.id ${IN_SCOPE})
  WHEN 'connections' THEN EXISTS (SELECT 1 FROM connections c
    JOIN facilities f ON f.organization_id = c.organization_id
    WHERE c.id = ${KEY0} AND f.id ${IN_SCOPE})
  WHEN 'brands' THEN ${BRAND_HERE(KEY0)}
  WHEN 'retailers' THEN true
  WHEN 'billing_prices' THEN ${BRAND_HERE(KEY0)}
  WHEN 'billing_action_prices' THEN ${BRAND_HERE(KEY0)}
  WHEN 'chargebacks' THEN EXISTS (SELECT 1 FROM chargebacks x
    WHERE ${ROW('chargebacks')} AND ${BRAND_HERE('x.brand_id')})
  WHEN 'pos_rows' THEN EXISTS (SELECT 1 FROM pos_rows x
    WHERE ${ROW('pos_rows')} AND ${BRAND_HERE('x.brand_id')})
  WHEN 'transactions' THEN EXISTS (SELECT 1 FROM transactions x
    WHERE ${ROW('transactions')} AND x.facility_id IS NULL AND ${BRAND_HERE('x.brand_id')})
  WHEN 'advice_snapshots' THEN EXISTS (SELECT 1 FROM advice_snapshots x
    WHERE ${ROW('advice_snapshots')} AND x.facility_id IS NULL AND ${BRAND_HERE('x.brand_id')})
  WHEN 'advice_deliveries' THEN EXISTS (SELECT 1 FROM advice_deliveries x
    JOIN advice_snapshots s ON s.id = x.snapshot_id
    WHERE ${ROW('advice_deliveries')}
      AND (s.facility_id ${IN_SCOPE} OR (s.facility_id IS NULL AND ${BRAND_HERE('s.brand_id')}))
      AND (x.organization_id IS NULL OR x.organization_id IN
        (SELECT f.organization_id FROM facilities f WHERE f.id ${IN_SCOPE})))
  WHEN 'advice_documents' THEN EXISTS (SELECT 1 FROM advice_documents x
    JOIN advice_deliveries d ON d.id = x.delivery_id
    JOIN advice_snapshots s ON s.id = d.snapshot_id
    WHERE ${ROW('advice_documents')}
      AND (s.facility_id ${IN_SCOPE} OR (s.facility_id IS NULL AND ${BRAND_HERE('s.brand_id')}))
      AND (d.organization_id IS NULL OR d.organization_id IN
        (SELECT f.organization_id FROM facilities f WHERE f.id ${IN_SCOPE})))
  WHEN 'edi_interchanges' THEN EXISTS (SELECT 1 FROM edi_interchanges x
    WHERE ${ROW('edi_interchanges')} AND ${INTERCHANGE_HERE('x')})
  WHEN 'order_documents' THEN EXISTS (SELECT 1 FROM order_documents x
    JOIN edi_interchanges i ON i.id = x.interchange_id
    WHERE ${ROW('order_documents')} AND x.order_id IS NULL AND ${INTERCHANGE_HERE('i')})
  WHEN 'sync_conflicts' THEN EXISTS (SELECT 1 FROM sync_conflicts x
    WHERE ${ROW('sync_conflicts')} AND x.facility_id IS NULL AND x.client_id = $2)
  WHEN 'sscc_serial_blocks' THEN EXISTS (SELECT 1 FROM sscc_serial_blocks x
    WHERE ${ROW('sscc_serial_blocks')} AND x.device_id = $2)
  ELSE false END)))`;
/** Entries whose writing transaction is in the window ($3 ≤ xid < $4) and version after $5. */
const IN_WINDOW = `v.xid >= $3::text::xid8 AND v.xid < $4::text::xid8 AND v.version > $5`;
const ROWS_PER_QUERY = 500;

/**
 * Where a device is: a window of writing transactions [low, high) served up to version `after`;
 * `high` null when the next pull opens the window [low, current xmin). A SQLite-era cursor
 * (`epoch:version:scope`, a central copied from SQLite) is the window [0, xmin) after its
 * version: copied rows keep their versions and have xid 0, and every version written here is
 * higher than theirs (stamps.postgres.ts).
 */
interface Position {
  low: string;
  high: string | null;
  after: number;
}

const WINDOW = /^([0-9a-f-]{36}):w(\d+)-(\d*)-(\d+):([0-9a-f]{12})$/;

export function parsePostgresCursor(
  cursor: string | undefined,
  epoch: string,
  scope: string,
): Position | null {
  const window = WINDOW.exec(cursor ?? '');
  if (window) {
    if (window[1] !== epoch || window[5] !== scope) return null;
    return { low: window[2]!, high: window[3] || null, after: Number(window[4]) };
  }
  const version = parseCursor(cursor, epoch, scope);
  return version === null ? null : { low: '0', high: null, after: version };
}

const cursorOf = (epoch: string, position: Position, tag: string) =>
  `${epoch}:w${position.low}-${position.high ?? ''}-${position.after}:${tag}`;

type Entry = { tbl: string; row_key: string; version: number; deleted: number };

/**
 * The changes after `cursor` within the device's facilities, about `limit` rows. One REPEATABLE
 * READ transaction (read only) for the page, so its rows and its xmin agree.
 */
export async function buildPostgresPullPage(
  db: Db,
  device: { id: string; facilityIds: string[] },
  cursor: string | undefined,
  limit: number,
): Promise<PullPage> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute((trx) => pageIn(trx, device, cursor, limit));
}

async function pageIn(
  trx: Transaction<Database>,
  device: { id: string; facilityIds: string[] },
  cursor: string | undefined,
  limit: number,
): Promise<PullPage> {
  const run = async <R>(text: string, parameters: unknown[]) =>
    (await trx.executeQuery<R>(CompiledQuery.raw(text, parameters))).rows;
  const [head] = await run<{ epoch: string; xmin: string }>(
    `SELECT (SELECT epoch FROM sync_meta) AS epoch,
       pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`,
    [],
  );
  const { epoch, xmin } = head!;
  const tag = scopeTag(device.facilityIds);
  const position = parsePostgresCursor(cursor, epoch, tag);
  const reset = position === null;
  const low = position?.low ?? '0';
  const high = position?.high ?? xmin;
  const after = position?.after ?? 0;
  const scope = device.facilityIds;
  const window = [scope, device.id, low, high, after];
  const [boundary] = await run<{ version: number }>(
    `SELECT v.version FROM sync_row_versions v WHERE ${IN_WINDOW} AND ${SCOPE}
       ORDER BY v.version LIMIT 1 OFFSET $6`,
    [...window, limit - 1],
  );
  const upTo = boundary?.version ?? null;
  const entries = await run<Entry>(
    `SELECT v.tbl, v.row_key, v.version, v.deleted FROM sync_row_versions v
       WHERE ${IN_WINDOW} AND ($6::bigint IS NULL OR v.version <= $6) AND ${SCOPE}
       ORDER BY v.version`,
    [...window, upTo],
  );
  const rows = await liveRows(run, entries);
  const changes: PulledChange[] = [];
  for (const entry of entries) {
    const row = entry.deleted ? undefined : rows.get(entry.tbl)?.get(entry.row_key);
    const k = JSON.parse(entry.row_key) as unknown[];
    if (row) changes.push({ t: entry.tbl, k, v: entry.version, row });
    // A first pull starts from nothing, so it needs no tombstones.
    else if (!reset) changes.push({ t: entry.tbl, k, v: entry.version, deleted: true });
  }
  const evictions = reset
    ? []
    : await run<{ v: number; order_id: string }>(
        `SELECT version AS v, order_id FROM sync_evictions
           WHERE xid >= $1::text::xid8 AND xid < $2::text::xid8 AND version > $3
             AND ($4::bigint IS NULL OR version <= $4) AND facility_id = ANY($5::text[])
           ORDER BY version`,
        [low, high, after, upTo, scope],
      );
  const restOfWindow =
    upTo !== null &&
    (
      await run(`SELECT 1 FROM sync_row_versions v WHERE ${IN_WINDOW} AND ${SCOPE} LIMIT 1`, [
        scope,
        device.id,
        low,
        high,
        upTo,
      ])
    ).length > 0;
  // The window continues after this page's last version, or the next pull opens the next one.
  const next: Position = restOfWindow
    ? { low, high, after: upTo }
    : { low: high, high: null, after: 0 };
  const more =
    restOfWindow ||
    (
      await run(`SELECT 1 FROM sync_row_versions v WHERE ${IN_WINDOW} AND ${SCOPE} LIMIT 1`, [
        scope,
        device.id,
        high,
        xmin,
        0,
      ])
    ).length > 0;
  const [client] = await run<{ last_seq: number }>(
    `SELECT last_seq FROM sync_clients WHERE client_id = $1`,
    [device.id],
  );
  return {
    epoch,
    reset,
    cursor: cursorOf(epoch, next, tag),
    more,
    last_seq: client?.last_seq ?? 0,
    changes,
    evictions,
  };
}

/** The live rows the entries name, by table and row_key (PostgreSQL has no rowid: by key). */
async function liveRows(
  run: <R>(text: string, parameters: unknown[]) => Promise<R[]>,
  entries: Entry[],
): Promise<Map<string, Map<string, Record<string, unknown>>>> {
  const keysByTable = new Map<string, string[]>();
  for (const entry of entries) {
    if (entry.deleted) continue;
    const list = keysByTable.get(entry.tbl) ?? [];
    list.push(entry.row_key);
    keysByTable.set(entry.tbl, list);
  }
  const rows = new Map<string, Map<string, Record<string, unknown>>>();
  for (const [name, keys] of keysByTable) {
    const table = REPLICATED_BY_NAME.get(name)!;
    const columns = table.key.map((_, i) => `c${i}`);
    const text = `SELECT ${postgresKeySql(table, 't')} AS sync_key, t.* FROM ${name} t
      JOIN unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS k(${columns.join(', ')})
        ON ${table.key.map((column, i) => `t.${column}::text = k.c${i}`).join(' AND ')}`;
    const byKey = new Map<string, Record<string, unknown>>();
    for (let i = 0; i < keys.length; i += ROWS_PER_QUERY) {
      const parsed = keys.slice(i, i + ROWS_PER_QUERY).map((k) => JSON.parse(k) as unknown[]);
      const parameters = table.key.map((_, c) => parsed.map((key) => String(key[c])));
      for (const row of await run<Record<string, unknown>>(text, parameters)) {
        const key = row.sync_key as string;
        delete row.sync_key;
        byKey.set(key, name === 'connections' ? connectionRowForDevice(row) : row);
      }
    }
    rows.set(name, byKey);
  }
  return rows;
}
