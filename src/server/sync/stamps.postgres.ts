import { CompiledQuery } from 'kysely';
import type { Db } from '../db/db';
import { LATER_TABLES } from './stamps';
import { postgresKeySql, REPLICATED_TABLES, type ReplicatedTable } from './synced-tables';

/**
 * The central's versions on PostgreSQL. The triggers and `sync_version()` are permanent
 * (db/postgres/migrations/0017_sync_stamps.ts) and act once `sync_meta` has its row; this start
 * step only writes that row, after giving every existing row a version, and keeps the sequence
 * past versions copied from a SQLite central. Nothing here runs per request.
 */
export async function installPostgresStamps(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const run = (text: string, parameters: unknown[] = []) =>
      trx.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, parameters));
    // Stamping a large central once may outlast the pool's statement and lock timeouts
    // (db/postgres/open.ts SESSION_SETTINGS); this transaction alone goes without them.
    await run(`SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0`);
    // Two app servers starting as the central at once: one stamps, the other waits and sees it.
    await run(`SELECT pg_advisory_xact_lock(hashtext('sync_meta'))`);
    await run(
      `SELECT setval('sync_version_seq', m.v) FROM (SELECT greatest(
         (SELECT max(version) FROM sync_row_versions), (SELECT max(version) FROM sync_evictions)) AS v) m,
         sync_version_seq s WHERE m.v IS NOT NULL AND m.v > s.last_value`,
    );
    const marked = (await run(`SELECT 1 FROM sync_meta`)).rows.length > 0;
    if (marked) {
      for (const table of REPLICATED_TABLES.filter((t) => LATER_TABLES.has(t.name))) {
        const stamped = await run(`SELECT 1 FROM sync_row_versions WHERE tbl = $1 LIMIT 1`, [
          table.name,
        ]);
        if (stamped.rows.length === 0) await run(stampEveryRow(table));
      }
      return;
    }
    // Writers that checked sync_meta before this commit stamp nothing: wait for them, and hold
    // new ones back until sync_meta is there, so no row is left without a version.
    await run(`LOCK TABLE ${REPLICATED_TABLES.map((t) => t.name).join(', ')} IN SHARE MODE`);
    for (const table of REPLICATED_TABLES) await run(stampEveryRow(table));
    await run(`INSERT INTO sync_meta (id, epoch) VALUES (1, $1)`, [crypto.randomUUID()]);
  });
}

/** A version for every row of the table that has none (baseline, or a table replicated later). */
function stampEveryRow(table: ReplicatedTable): string {
  return `INSERT INTO sync_row_versions (tbl, row_key, version, deleted, facility_id, order_id, xid)
    SELECT '${table.name}', ${postgresKeySql(table, 'R')}, sync_version(), 0, ${table.facility},
      ${table.order ?? 'NULL'}, pg_current_xact_id()
    FROM ${table.name} R
    ON CONFLICT (tbl, row_key) DO NOTHING`;
}
