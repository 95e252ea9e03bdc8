import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { Db } from '../db/db';
import { endedByConflict } from '../db/postgres/conflicts';
import { statementNamer } from '../db/postgres/statement-names';
import type { ApplySql } from './apply-sql';
import { MISSING_REFERENCE, PICKSHEET_TAKEN, Refusal, SSCC_TAKEN } from './refusal';
import { keyWhere, type SqlValue } from './rows';

/** `?` placeholders as PostgreSQL's `$1…$n` (the port's SQL has no `?` inside literals). */
const numberedCache = new Map<string, string>();
function numbered(text: string): string {
  let converted = numberedCache.get(text);
  if (converted === undefined) {
    let n = 0;
    converted = text.replace(/\?/g, () => `$${++n}`);
    if (numberedCache.size >= 1024) numberedCache.clear();
    numberedCache.set(text, converted);
  }
  return converted;
}

/**
 * Columns per table. Every database a process opens has the schema of the migrations it applied
 * at start, so one cache per process holds for all of them.
 */
const columnsCache = new Map<string, string[]>();

/**
 * The apply port on one PostgreSQL connection (a Kysely connection held for the whole push, or a
 * transaction's). Versions are the transaction's (sync_version()); the permanent stamp triggers
 * record every write, and a restamp is `UPDATE sync_row_versions SET version = sync_version(),
 * xid = pg_current_xact_id()` (docs/sync.md, PostgreSQL).
 */
export function postgresApplySql(db: Pick<Db, 'executeQuery'>): ApplySql {
  return applySqlOn(async (text, params) => {
    const result = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(numbered(text), [...params]),
    );
    return { rows: result.rows, changed: Number(result.numAffectedRows ?? 0) };
  });
}

/**
 * The apply port on a `pg` client checked out of the service's pool (db/postgres/pool.ts) for
 * the whole push: its parameterised statements are named prepared statements, parsed and
 * planned once per connection instead of on every execution (Kysely's connection sends each
 * query unnamed). The push's statements are a small set of texts (per table and column list),
 * so a connection holds a bounded set of them (statementNamer); any text past it runs unnamed.
 */
export function postgresClientApplySql(client: pg.ClientBase): ApplySql {
  return applySqlOn(async (text, params) => {
    const converted = numbered(text);
    const name = params.length > 0 ? statementName(converted) : undefined;
    const result = await client.query<Record<string, unknown>>(
      name ? { name, text: converted, values: [...params] } : { text: converted },
    );
    return { rows: result.rows, changed: result.rowCount ?? 0 };
  });
}

/** The push's texts: per table and column list (db/postgres/statement-names.ts). */
const statementName = statementNamer('push', 500);

type Query = (
  text: string,
  params: readonly SqlValue[],
) => Promise<{ rows: Record<string, unknown>[]; changed: number }>;

function applySqlOn(query: Query): ApplySql {
  const get = async <T>(text: string, params: readonly SqlValue[] = []) =>
    (await query(text, params)).rows[0] as T | undefined;
  const run = async (text: string, params: readonly SqlValue[] = []) =>
    (await query(text, params)).changed;
  // sync_version() is the transaction's: asked once per transaction.
  let version: number | null = null;
  /**
   * A RELEASE SAVEPOINT not sent yet. Every statement costs a round trip, so a release waits for
   * the next transaction-control statement and goes in the same one (parameterless text is sent
   * with the simple protocol, which takes several statements): before a SAVEPOINT or a ROLLBACK TO
   * it is sent ahead of it, and COMMIT and ROLLBACK end every savepoint anyway. Statements run in
   * the meantime belong to the savepoint's subtransaction, which commits or rolls back with the
   * transaction as the released one would (a failure there fails the whole push either way).
   */
  let pendingRelease: string | null = null;
  return {
    batch: 50,
    optimistic: true,
    get,
    run,
    begin: async () => {
      version = null;
      pendingRelease = null;
      await query('BEGIN ISOLATION LEVEL READ COMMITTED', []);
    },
    exec: async (text) => {
      if (text.startsWith('RELEASE SAVEPOINT ')) {
        if (pendingRelease !== null) await query(pendingRelease, []);
        pendingRelease = text;
        return;
      }
      const ending = text === 'COMMIT' || text === 'ROLLBACK';
      if (ending) version = null;
      const ahead = ending || pendingRelease === null ? '' : `${pendingRelease}; `;
      pendingRelease = null;
      await query(`${ahead}${text}`, []);
    },
    columnsOf: async (table) => {
      let columns = columnsCache.get(table);
      if (!columns) {
        const result = await query(
          // A generated column (transactions.search_key) is the central's own: a pushed value
          // for it is dropped like any unknown column, never written.
          `SELECT column_name AS c FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = ? AND is_generated = 'NEVER'
            ORDER BY ordinal_position`,
          [table],
        );
        columns = result.rows.map((r) => String(r.c));
        columnsCache.set(table, columns);
      }
      return columns;
    },
    forUpdate: ' FOR UPDATE',
    // Typed as the table's columns, so the scope SQL compares like with like.
    rowOf: (table, columns, values) => ({
      from: `jsonb_populate_record(NULL::${table}, ?::jsonb)`,
      params: [
        JSON.stringify(
          Object.fromEntries(columns.map((c, i) => [c, jsonValue(values[i] ?? null)])),
        ),
      ],
    }),
    beginUnit: () => {},
    version: async () => {
      version ??= Number((await get<{ v: unknown }>(`SELECT sync_version() AS v`))!.v);
      return version;
    },
    restamp: async (table, key) => {
      const rowKey = JSON.stringify(key);
      const stamped = await run(
        `UPDATE sync_row_versions SET version = sync_version(), xid = pg_current_xact_id()
          WHERE tbl = ? AND row_key = ?`,
        [table.name, rowKey],
      );
      if (stamped > 0) return;
      // Never stamped here: the central has no such row (the triggers stamp every one it has).
      const exists = await get(`SELECT 1 AS x FROM ${table.name} WHERE ${keyWhere(table)}`, key);
      if (exists) return;
      await run(
        `INSERT INTO sync_row_versions (tbl, row_key, version, deleted, xid)
         VALUES (?, ?, sync_version(), 1, pg_current_xact_id()) ON CONFLICT (tbl, row_key) DO NOTHING`,
        [table.name, rowKey],
      );
    },
    refusalOf: postgresRefusal,
    retryable: endedByConflict,
  };
}

const jsonValue = (value: SqlValue) =>
  Buffer.isBuffer(value)
    ? value.toString('base64')
    : typeof value === 'bigint'
      ? Number(value)
      : value;

/**
 * SQLSTATE classes 23 (integrity: unique 23505, foreign key 23503, check 23514, not null 23502)
 * and 22 (data: a value that is not of the column's type) are permanent for these rows, as
 * SQLITE_CONSTRAINT_* are on SQLite; anything else (a lost connection, a deadlock) is temporary.
 */
function postgresRefusal(error: unknown): Refusal | null {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (typeof code !== 'string' || !/^2[23]/.test(code)) return null;
  if (code === '23505' && constraint === 'orders_facility_picksheet') return PICKSHEET_TAKEN();
  if (code === '23505' && (constraint === 'cartons_sscc' || constraint === 'pallets_sscc')) {
    return SSCC_TAKEN();
  }
  if (code === '23503') return MISSING_REFERENCE();
  return new Refusal(`The central service refused it: ${(error as Error).message}`);
}
