import { CompiledQuery, type Transaction } from 'kysely';
import type pg from 'pg';
import type { Db } from '../db/db';
import type { Database } from '../db/schema';
import { poolOf } from '../db/postgres/pool';
import { statementNamer } from '../db/postgres/statement-names';
import type { PullPage } from './protocol';
import { scopeTag } from './pull';
import {
  cursorOf,
  parsePostgresCursor,
  readsInVersionOrder,
  type Position,
  type PullAnswer,
  type PullRequest,
} from './pull-cursor.postgres';
import { connectionRowForDevice } from './connection-credentials';
import {
  changeJson,
  changesMayDiffer,
  mayDiffer,
  pageJson,
  spliceChanges,
  tombstoneJson,
} from './pull-json';
import {
  ownEntries,
  pageParameters,
  pageSqlFor,
  type PageRead,
  type OwnEntry,
  type PageRow,
} from './pull-page.postgres';
import { postgresInWindow, postgresScope } from './pull-scope.postgres';
import { quietPull, recordPull } from './pull-quiet.postgres';
import { selectedColumns, sentColumns, type SentColumns } from './pull-columns.postgres';
import { postgresKeySql, REPLICATED_BY_NAME } from './synced-tables';

/*
 * PostgreSQL twin of pull.ts. Versions come from a sequence and commit out of order, so a page
 * serves only rows written by transactions older than the snapshot's xmin (none of them can still
 * commit): a window of writing transactions [low, high), read in version order, pages ending at a
 * version boundary (docs/sync.md, "A central on PostgreSQL"). A pull that finds nothing new is
 * answered by one statement (pull-quiet.postgres.ts); a page is one REPEATABLE READ transaction
 * whose changes come as one JSON text (pull-page.postgres.ts, pull-json.ts).
 */
const ROWS_PER_QUERY = 500;

/** The changes after the cursor within the device's facilities, about `limit` rows. */
export async function postgresPull(db: Db, request: PullRequest): Promise<PullAnswer> {
  const quiet = await quietPull(db, request);
  if (quiet) return quiet;
  const pool = poolOf(db);
  const page = pool
    ? await pullPageOnPool(pool, preparedRun, request)
    : await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        .execute((trx) => pageIn(kyselyRun(trx), request));
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

export type Run = <R>(text: string, parameters: unknown[]) => Promise<R[]>;

/**
 * A page's transaction on a client checked out of the service's pool (db/postgres/pool.ts), its
 * parameterised statements named prepared statements (`run`: a parameter so the tests can fail
 * it between any two statements). As a push's client (central.ts applyPushOnPool), one that
 * failed anywhere is closed, never returned to the pool inside its transaction.
 */
export async function pullPageOnPool(
  pool: pg.Pool,
  run: (client: pg.PoolClient) => Run,
  request: PullRequest,
): Promise<PullAnswer> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const page = await pageIn(run(client), request);
    await client.query('COMMIT');
    client.release();
    return page;
  } catch (error) {
    client.release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

/**
 * Statements as named prepared statements (db/postgres/statement-names.ts).
 */
export const preparedRun =
  (client: pg.ClientBase): Run =>
  async (text, values) => {
    const name = statementName(text);
    return (await client.query(name ? { name, text, values } : { text, values })).rows as never;
  };

/** A pull has a few dozen texts (the page's two and one per table for decoded rows). */
const statementName = statementNamer('pull', 200);

/** A page's statements through Kysely's transaction (a database without its pool: tests' plugins). */
const kyselyRun =
  (trx: Transaction<Database>): Run =>
  async (text, parameters) =>
    (await trx.executeQuery(CompiledQuery.raw(text, parameters))).rows as never;

/**
 * The page's transaction, its statements run by `run`. JIT would compile the scope SQL for every
 * query (its estimate is high), at 0.2-0.4 s a query against milliseconds of work. A prepared
 * statement's generic plan (PostgreSQL's choice after five executions) does not know the window,
 * guesses it small and sorts the whole table instead of reading the version index in order
 * (30-50 ms more a page, 8 ms more for a `LIMIT 1` probe). So the page's statement comes in two
 * texts (pull-page.postgres.ts PageRead), each with a generic plan planned once per connection
 * instead of 1-5 ms a page: a page read along the version index anyway (a first pull, the rest
 * of a window: readsInVersionOrder) plans with sorts ruled out, which is that read; a new window
 * (every pull of a device keeping up) plans as it is, the xid index and a sort of the window's
 * entries, what its custom plan is too (the statistics never know the newest xids). The page's
 * small statements after it (own rows, evictions) run generic plans too; only the probe of a
 * window opened earlier goes back to a custom one.
 */
async function pageIn(run: Run, request: PullRequest): Promise<PullAnswer> {
  const { device, limit } = request;
  const read: PageRead = readsInVersionOrder(request.cursor) ? 'version order' : 'new window';
  const [meta] = await run<{ epoch: string; xmin: string; last_seq: number | null }>(
    `SELECT set_config('jit', 'off', true) AS jit,
       set_config('plan_cache_mode', 'force_generic_plan', true) AS plans,
       set_config('enable_sort', $2, true) AS sorts,
       (SELECT epoch FROM sync_meta) AS epoch,
       pg_snapshot_xmin(pg_current_snapshot())::text AS xmin,
       (SELECT last_seq FROM sync_clients WHERE client_id = $1) AS last_seq`,
    [device.id, read === 'version order' ? 'off' : 'on'],
  );
  const { epoch, xmin } = meta!;
  const tag = scopeTag(device.facilityIds);
  const position = parsePostgresCursor(request.cursor, epoch, tag);
  const reset = position === null;
  const low = position?.low ?? '0';
  const high = position?.high ?? xmin;
  const after = position?.after ?? 0;
  const scope = device.facilityIds;
  const columns = await sentColumns(run);
  const window = { low, high, after };
  const page = (allOwn: boolean) =>
    run<PageRow>(
      pageSqlFor(columns, read),
      pageParameters(scope, device.id, window, limit, allOwn, reset),
    );
  let [head] = await page(request.perRow === true);
  // A row or key whose JSON could differ from JSON.stringify's (or text that looks so): the page
  // again, every entry written by Node, each row tested on its own (rare: exponents, -0, NaN,
  // integers past 2^53, escaped keys).
  if (!request.perRow && changesMayDiffer(head!.changes)) [head] = await page(true);
  const { entries, last_version, next_version } = head!;
  const full = entries > 0 && entries >= limit;
  const upTo = full ? last_version : null;
  const own = await ownChanges(run, columns, ownEntries(head!));
  const changes = spliceChanges(head!.changes, own);
  const evictions = reset
    ? []
    : await run<{ v: number; order_id: string }>(
        `SELECT version AS v, order_id FROM sync_evictions
           WHERE xid >= $1::text::xid8 AND xid < $2::text::xid8 AND version > $3
             AND ($4::bigint IS NULL OR version <= $4) AND facility_id = ANY($5::text[])
           ORDER BY version`,
        [low, high, after, upTo, scope],
      );
  // The probe of a window opened earlier, with a custom plan (its generic plan reads the whole
  // version index: 8 ms more); the page's statements before it run their generic plans.
  const exists = async (from: string, to: string) => {
    if (from === to) return false;
    await run(
      `SELECT set_config('plan_cache_mode', 'force_custom_plan', true) AS plans,
         set_config('enable_sort', 'on', true) AS sorts`,
      [],
    );
    const found = await run(
      `SELECT 1 FROM sync_row_versions v WHERE ${postgresInWindow} AND ${postgresScope} LIMIT 1`,
      [scope, device.id, from, to, 0],
    );
    return found.length > 0;
  };
  const restOfWindow = upTo !== null && next_version !== null && next_version > upTo;
  // The window continues after this page's last version, or the next pull opens the next one.
  const next: Position = restOfWindow
    ? { low, high, after: upTo }
    : { low: high, high: null, after: 0 };
  // A window opened by this pull ends at xmin, so there is nothing after it yet.
  const more = restOfWindow || (await exists(high, xmin));
  const json = pageJson(
    {
      epoch,
      reset,
      cursor: cursorOf(epoch, next, tag),
      more,
      last_seq: meta!.last_seq ?? 0,
      evictions,
    },
    [changes],
  );
  return { json, more };
}

/**
 * The own entries' changes by number (pull-page.postgres.ts: connections lose their credentials,
 * a row whose JSON could differ from what `pg` and JSON.stringify make of it, pull-json.ts
 * mayDiffer, is read again decoded, a key that is not plain is written again). The statement
 * left out a first pull's tombstones already.
 */
async function ownChanges(
  run: Run,
  columns: SentColumns,
  entries: OwnEntry[],
): Promise<Map<number, string>> {
  const decode = entries.filter((e) => e.row !== null && mayDiffer(e.row));
  const decoded = decode.length
    ? await decodedRows(run, columns, decode)
    : new Map<string, string>();
  const changes = new Map<number, string>();
  for (const entry of entries) {
    if (entry.row === null) {
      changes.set(entry.n, tombstoneJson(entry.tbl, entry.row_key, entry.version));
      continue;
    }
    const row =
      decoded.get(`${entry.tbl}\u0000${entry.row_key}`) ??
      (entry.tbl === 'connections'
        ? JSON.stringify(connectionRowForDevice(JSON.parse(entry.row) as Record<string, unknown>))
        : entry.row);
    changes.set(entry.n, changeJson(entry.tbl, entry.row_key, entry.version, row));
  }
  return changes;
}

/** The named rows as `pg` decodes them, written by JSON.stringify, by table and row_key. */
async function decodedRows(
  run: Run,
  sent: SentColumns,
  entries: OwnEntry[],
): Promise<Map<string, string>> {
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
    const text = `SELECT ${postgresKeySql(table, 't')} AS sync_key, ${selectedColumns(sent, name, 't')} FROM ${name} t
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
