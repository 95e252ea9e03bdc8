import { CompiledQuery, type Transaction } from 'kysely';
import type { Db } from '../db/db';
import type { Database } from '../db/schema';
import type { PullPage } from './protocol';
import { scopeTag } from './pull';
import {
  cursorOf,
  parsePostgresCursor,
  type Position,
  type PullAnswer,
  type PullRequest,
} from './pull-cursor.postgres';
import { connectionRowForDevice } from './connection-credentials';
import { changeJson, mayDiffer, pageJson, tombstoneJson } from './pull-json';
import { postgresInWindow, postgresRow, postgresScope } from './pull-scope.postgres';
import { quietPull, recordPull } from './pull-quiet.postgres';
import { postgresKeySql, REPLICATED_BY_NAME, REPLICATED_TABLES } from './synced-tables';

/*
 * PostgreSQL twin of pull.ts. Versions come from a sequence and commit out of order, so a page
 * serves only rows written by transactions older than the snapshot's xmin (none of them can still
 * commit): a window of writing transactions [low, high), read in version order, pages ending at a
 * version boundary (docs/sync.md, "A central on PostgreSQL"). A pull that finds nothing new is
 * answered by one statement (pull-quiet.postgres.ts); a page is one REPEATABLE READ transaction
 * whose rows come as JSON text (pull-json.ts).
 */
const ROWS_PER_QUERY = 500;

/** The changes after the cursor within the device's facilities, about `limit` rows. */
export async function postgresPull(db: Db, request: PullRequest): Promise<PullAnswer> {
  const quiet = await quietPull(db, request);
  if (quiet) return quiet;
  const page = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute((trx) => pageIn(trx, request));
  if (request.at !== undefined) await recordPull(db, request.device.id, request.at, !page.more);
  return page;
}

/** postgresPull's page as an object (tests and tools; the route sends the text). */
export async function buildPostgresPullPage(
  db: Db,
  device: { id: string; facilityIds: string[] },
  cursor: string | undefined,
  limit: number,
): Promise<PullPage> {
  return JSON.parse((await postgresPull(db, { device, cursor, limit })).json) as PullPage;
}

type Run = <R>(text: string, parameters: unknown[]) => Promise<R[]>;
type Entry = { tbl: string; row_key: string; version: number; deleted: number; row: string | null };

/** Each table's row, as JSON text, by the version entry `v` (`CASE v.tbl WHEN …`). */
const ROW_JSON = `CASE WHEN v.deleted = 0 THEN CASE v.tbl ${REPLICATED_TABLES.map(
  (t) =>
    `WHEN '${t.name}' THEN (SELECT row_to_json(x)::text FROM ${t.name} x WHERE ${postgresRow(t.name)})`,
).join('\n')} END END`;

/**
 * A page's entries with their rows (null for a tombstone or a row gone): the in-scope entries of
 * the window up to the version of the `limit`-th one ($6 is `limit - 1`), all of them when there
 * are fewer. $1-$5: postgresInWindow's.
 */
const PAGE_SQL = `WITH boundary AS (
    SELECT v.version FROM sync_row_versions v WHERE ${postgresInWindow} AND ${postgresScope}
    ORDER BY v.version LIMIT 1 OFFSET $6),
  page AS (
    SELECT v.tbl, v.row_key, v.version, v.deleted, ${ROW_JSON} AS row FROM sync_row_versions v
    WHERE ${postgresInWindow} AND ${postgresScope}
      AND (NOT EXISTS (SELECT 1 FROM boundary) OR v.version <= (SELECT version FROM boundary)))
  SELECT * FROM page ORDER BY version`;

async function pageIn(trx: Transaction<Database>, request: PullRequest): Promise<PullAnswer> {
  const { device, limit } = request;
  const run: Run = async (text, parameters) =>
    (await trx.executeQuery(CompiledQuery.raw(text, parameters))).rows as never;
  // JIT would compile the scope SQL for every query (its estimate is high), at 0.2-0.4 s a query
  // against milliseconds of work.
  const [head] = await run<{ epoch: string; xmin: string; last_seq: number | null }>(
    `SELECT set_config('jit', 'off', true) AS jit, (SELECT epoch FROM sync_meta) AS epoch,
       pg_snapshot_xmin(pg_current_snapshot())::text AS xmin,
       (SELECT last_seq FROM sync_clients WHERE client_id = $1) AS last_seq`,
    [device.id],
  );
  const { epoch, xmin } = head!;
  const tag = scopeTag(device.facilityIds);
  const position = parsePostgresCursor(request.cursor, epoch, tag);
  const reset = position === null;
  const low = position?.low ?? '0';
  const high = position?.high ?? xmin;
  const after = position?.after ?? 0;
  const scope = device.facilityIds;
  const entries = await run<Entry>(PAGE_SQL, [scope, device.id, low, high, after, limit - 1]);
  const full = entries.length > 0 && entries.length >= limit;
  const upTo = full ? entries[entries.length - 1]!.version : null;
  const changes = await changesJson(run, entries, reset);
  const evictions = reset
    ? []
    : await run<{ v: number; order_id: string }>(
        `SELECT version AS v, order_id FROM sync_evictions
           WHERE xid >= $1::text::xid8 AND xid < $2::text::xid8 AND version > $3
             AND ($4::bigint IS NULL OR version <= $4) AND facility_id = ANY($5::text[])
           ORDER BY version`,
        [low, high, after, upTo, scope],
      );
  const exists = async (from: string, to: string, version: number) =>
    from !== to &&
    (
      await run(
        `SELECT 1 FROM sync_row_versions v WHERE ${postgresInWindow} AND ${postgresScope} LIMIT 1`,
        [scope, device.id, from, to, version],
      )
    ).length > 0;
  const restOfWindow = upTo !== null && (await exists(low, high, upTo));
  // The window continues after this page's last version, or the next pull opens the next one.
  const next: Position = restOfWindow
    ? { low, high, after: upTo }
    : { low: high, high: null, after: 0 };
  // A window opened by this pull ends at xmin, so there is nothing after it yet.
  const more = restOfWindow || (await exists(high, xmin, 0));
  const json = pageJson(
    {
      epoch,
      reset,
      cursor: cursorOf(epoch, next, tag),
      more,
      last_seq: head!.last_seq ?? 0,
      evictions,
    },
    changes,
  );
  return { json, more };
}

/**
 * The entries as JSON changes. A row whose JSON could differ from what `pg` and JSON.stringify
 * make of it (pull-json.ts mayDiffer) is read again decoded; connections lose their credentials.
 */
async function changesJson(run: Run, entries: Entry[], reset: boolean): Promise<string[]> {
  const decode = entries.filter((e) => e.row !== null && mayDiffer(e.row));
  const decoded = decode.length ? await decodedRows(run, decode) : new Map<string, string>();
  const changes: string[] = [];
  for (const entry of entries) {
    if (entry.row === null) {
      // A first pull starts from nothing, so it needs no tombstones.
      if (!reset) changes.push(tombstoneJson(entry.tbl, entry.row_key, entry.version));
      continue;
    }
    const row =
      decoded.get(`${entry.tbl}\u0000${entry.row_key}`) ??
      (entry.tbl === 'connections'
        ? JSON.stringify(connectionRowForDevice(JSON.parse(entry.row) as Record<string, unknown>))
        : entry.row);
    changes.push(changeJson(entry.tbl, entry.row_key, entry.version, row));
  }
  return changes;
}

/** The named rows as `pg` decodes them, written by JSON.stringify, by table and row_key. */
async function decodedRows(run: Run, entries: Entry[]): Promise<Map<string, string>> {
  const keysByTable = new Map<string, string[]>();
  for (const entry of entries) {
    const list = keysByTable.get(entry.tbl) ?? [];
    list.push(entry.row_key);
    keysByTable.set(entry.tbl, list);
  }
  const rows = new Map<string, string>();
  for (const [name, keys] of keysByTable) {
    const table = REPLICATED_BY_NAME.get(name)!;
    const columns = table.key.map((_, i) => `c${i}`);
    const text = `SELECT ${postgresKeySql(table, 't')} AS sync_key, t.* FROM ${name} t
      JOIN unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS k(${columns.join(', ')})
        ON ${table.key.map((column, i) => `t.${column}::text = k.c${i}`).join(' AND ')}`;
    for (let i = 0; i < keys.length; i += ROWS_PER_QUERY) {
      const parsed = keys.slice(i, i + ROWS_PER_QUERY).map((k) => JSON.parse(k) as unknown[]);
      const parameters = table.key.map((_, c) => parsed.map((key) => String(key[c])));
      for (const row of await run<Record<string, unknown>>(text, parameters)) {
        const key = row.sync_key as string;
        delete row.sync_key;
        const device = name === 'connections' ? connectionRowForDevice(row) : row;
        rows.set(`${name}\u0000${key}`, JSON.stringify(device));
      }
    }
  }
  return rows;
}
