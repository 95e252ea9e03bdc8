import { selectedColumns, type SentColumns } from './pull-columns.postgres';
import { postgresInWindow, postgresRow, postgresScope } from './pull-scope.postgres';
import { REPLICATED_TABLES } from './synced-tables';

/*
 * A PostgreSQL pull page's one statement (pull.postgres.ts). It returns the page's changes as one
 * JSON text, built in SQL, and apart from it the entries that Node must write itself ("own"
 * entries: pull-json.ts spliceChanges puts them in the text at their marks). Receiving one text
 * instead of some 5,000 rows of 6 fields saves Node decoding each row into an object and writing
 * each change again (docs/decisions, "The PostgreSQL pull's changes as one text").
 */

/**
 * The JSON the entry keeps, read by the entry's tuple id once the page's entries are chosen: the
 * window functions and a new window's sort carry the narrow entries only (a first-pull page's
 * texts would be some 10 MB, past `work_mem`, spilled to disk: 3x the page's time).
 */
const KEPT_JSON = `(SELECT k.row_json FROM sync_row_versions k WHERE k.ctid = v.entry)`;

/**
 * Each table's row, as JSON text, by the version entry `v` (`CASE v.tbl WHEN …`): the JSON the
 * entry keeps (migration 0019_sync_row_json: written with the row, by the same `row_to_json`),
 * else the row looked up by its key. A table with columns of the central's own (generated ones:
 * pull-columns.postgres.ts) is always looked up, its sent columns only.
 */
const rowJson = (columns: SentColumns) =>
  `CASE WHEN v.deleted = 0 THEN CASE v.tbl ${REPLICATED_TABLES.map((t) =>
    columns.has(t.name)
      ? `WHEN '${t.name}' THEN (SELECT row_to_json(r)::text FROM (SELECT ${selectedColumns(columns, t.name, 'x')}
          FROM ${t.name} x WHERE ${postgresRow(t.name)}) r)`
      : `WHEN '${t.name}' THEN coalesce(${KEPT_JSON},
          (SELECT row_to_json(x)::text FROM ${t.name} x WHERE ${postgresRow(t.name)}))`,
  ).join('\n')} END END`;

/**
 * Entries Node writes itself: all of them when asked ($7: the text may differ from JSON.stringify's,
 * pull-json.ts changesMayDiffer), and connections (their credentials are removed,
 * connection-credentials.ts).
 */
const OWN = `($7::boolean OR v.tbl = 'connections')`;

/**
 * `{"t":…,"k":…,"v":…,"row":…}`, or `…,"deleted":true}` for a tombstone (pull-json.ts
 * changeJson, tombstoneJson), in one concat (each `||` would copy the text so far). PostgreSQL's
 * to_json escapes a string as JSON.stringify does; the row_key is copied as it is, and Node
 * checks that each one is plain (changesMayDiffer).
 */
const CHANGE = `CASE WHEN p.row IS NULL
  THEN concat('{"t":', to_json(p.tbl), ',"k":', p.row_key, ',"v":', p.version, ',"deleted":true}')
  ELSE concat('{"t":', to_json(p.tbl), ',"k":', p.row_key, ',"v":', p.version, ',"row":', p.row, '}')
  END`;

/**
 * The page's entries are the in-scope entries of the window whose version has fewer than `limit`
 * ($6) entries before it: every entry up to the version of the `limit`-th one, all of them when
 * there are fewer. The rank's run condition stops the scan there, and the scope SQL is in the
 * statement once (planning it is most of the statement's planning). `n` numbers them in version
 * order; `next_version` is the version of the entry after each one in the window (null for the
 * last): one past the page's last version means the window goes on. A first pull ($8) sends no
 * tombstones (it starts from nothing), but counts them among the page's entries.
 *
 * One row: `entries`, `last_version`, `next_version` (the largest), `changes`, the changes' JSON
 * joined by commas in version order (the aggregate takes the subquery's order, as PostgreSQL
 * documents for a sorted subquery), an own entry written as its number between two U+0001
 * (pull-json.ts OWN_MARK), and `own`, a JSON array of the own entries, each
 * `[n, tbl, row_key, version, row]` (`row` as JSON text in a string, or null).
 * $1-$5: postgresInWindow's.
 */
const pageSql = (columns: SentColumns) =>
  `SELECT count(*) AS entries, max(p.version) AS last_version, max(p.next_version) AS next_version,
    coalesce(string_agg(CASE WHEN p.row IS NULL AND $8::boolean THEN NULL
      WHEN p.own THEN concat(chr(1), p.n, chr(1)) ELSE ${CHANGE} END, ','), '') AS changes,
    coalesce(json_agg(json_build_array(p.n, p.tbl, p.row_key, p.version, p.row))
      FILTER (WHERE p.own AND (p.row IS NOT NULL OR NOT $8::boolean)), '[]')::text AS own
  FROM (
    SELECT v.n, v.tbl, v.row_key, v.version, v.next_version, ${OWN} AS own, ${rowJson(columns)} AS row
    FROM (
      SELECT v.tbl, v.row_key, v.version, v.deleted, v.ctid AS entry, rank() OVER w AS place,
        row_number() OVER w AS n, lead(v.version) OVER w AS next_version
      FROM sync_row_versions v WHERE ${postgresInWindow} AND ${postgresScope}
      WINDOW w AS (ORDER BY v.version)) v
    WHERE v.place <= $6 ORDER BY v.version) p`;

/**
 * How a page finds its entries (pull.postgres.ts pageIn): along the version index from `after`
 * (a first pull, the rest of a window), or by the xid index and a sort (a new window). Each read
 * has its own statement text, so a connection keeps one generic plan of each: a prepared
 * statement caches a single generic plan, planned under the settings of its first use.
 */
export type PageRead = 'version order' | 'new window';

let pageSqlText: { columns: SentColumns; text: Record<PageRead, string> } | undefined;
export function pageSqlFor(columns: SentColumns, read: PageRead): string {
  if (pageSqlText?.columns !== columns) {
    const text = pageSql(columns);
    pageSqlText = {
      columns,
      text: { 'version order': text, 'new window': `/* new window */ ${text}` },
    };
  }
  return pageSqlText.text[read];
}

/** The statement's one row. */
export type PageRow = {
  entries: number;
  last_version: number | null;
  next_version: number | null;
  changes: string;
  own: string;
};

/** An entry Node writes itself: `row` null for a tombstone or a row gone. */
export type OwnEntry = {
  n: number;
  tbl: string;
  row_key: string;
  version: number;
  row: string | null;
};

/** The own entries of the statement's row. */
export function ownEntries(page: PageRow): OwnEntry[] {
  return (JSON.parse(page.own) as [number, string, string, number, string | null][]).map(
    ([n, tbl, row_key, version, row]) => ({ n, tbl, row_key, version, row }),
  );
}

/** The page statement's parameters ($1-$8). */
export function pageParameters(
  scope: string[],
  device: string,
  window: { low: string; high: string; after: number },
  limit: number,
  allOwn: boolean,
  reset: boolean,
): unknown[] {
  return [scope, device, window.low, window.high, window.after, limit, allOwn, reset];
}
