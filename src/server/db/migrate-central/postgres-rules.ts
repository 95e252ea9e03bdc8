/**
 * What the copy does beyond "same table, same columns" on PostgreSQL. Everything engine-specific
 * in a move is here, so a schema change on either side touches this file only.
 */

/**
 * Columns only PostgreSQL has, and the value copied rows get. `xid`: the transaction that wrote a
 * row version (the pull's watermark, docs/sync.md). Copied versions were committed long before any
 * PostgreSQL transaction, so they get xid 0: older than every watermark, served to a cursor by
 * their version alone, as the SQLite central served them.
 */
export const COPIED_ROW_VALUES: Record<string, Record<string, string>> = {
  sync_row_versions: { xid: `'0'::xid8` },
  sync_evictions: { xid: `'0'::xid8` },
};

/**
 * Columns copied as NULL: `src_rowid` names a SQLite rowid, which means nothing on PostgreSQL
 * (its pull reads rows by primary key, `row_key`).
 */
export const NULLED_COLUMNS: Record<string, string[]> = {
  sync_row_versions: ['src_rowid'],
};

/**
 * Sequences set above the highest value copied, so the next one taken follows it:
 * `sync_version_seq` hands out the central's versions (its next version must be above every
 * version a device holds a cursor for). Identity columns are found and set generically.
 */
export const VERSION_SEQUENCE = {
  name: 'sync_version_seq',
  highest: `SELECT greatest(coalesce((SELECT max(version) FROM sync_row_versions), 0),
                             coalesce((SELECT max(version) FROM sync_evictions), 0)) AS v`,
};

/**
 * SQLite tables with no PostgreSQL counterpart, and why: FTS5's search table and its shadow
 * tables, and the id side tables that FTS5 needed; pg_trgm indexes read the rows themselves.
 */
export const NOT_ON_POSTGRES = /^(transactions_search|orders_search_ids$|orders_code_search)/;

/** The PostgreSQL table of the file store (issue 17, item 3), when this release has it. */
export const FILE_STORE_TABLE = 'stored_files';

/**
 * The token signing secret on PostgreSQL (access/shared-secret.ts): one row every central process
 * signs with. The copy puts the data dir's `jwt-secret.key` there, so tokens issued by the SQLite
 * central (users' and devices') stay valid.
 */
export const SIGNING_SECRET = {
  table: 'service_secrets',
  name: 'jwt-signing',
  file: 'jwt-secret.key',
};
