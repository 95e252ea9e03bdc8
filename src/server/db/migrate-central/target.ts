import pg from 'pg';
import { migratePostgres } from '../postgres/open';
import { MigrateCentralError } from './source';

export interface TargetTable {
  name: string;
  columns: string[];
}

/** Kysely's own bookkeeping: written by the migrations, never copied. */
const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/**
 * Connects to the target and checks it is empty: no tables at all, or the service's migrated
 * schema with no rows in any table holding data (`dataTables`: those the copy fills) — a
 * PostgreSQL service started once on it, or an earlier copy that failed and rolled back. Tables of
 * the processes' own machinery (cache versions, the signing secret) may have rows. Anything else
 * is refused: the copy never merges into data.
 */
export async function openEmptyTarget(url: string, dataTables: string[]): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    // The URL may hold a password: name the failure, not the URL.
    throw new MigrateCentralError(`Cannot connect to the database: ${(error as Error).message}`);
  }
  try {
    const tables = await listTargetTables(client);
    if (tables.length > 0 && !tables.some((t) => t.name === 'kysely_migration')) {
      throw new MigrateCentralError(
        `The database is not empty (it has tables such as ${tables[0]!.name}, not made by this service): migrate-central copies into a new, empty database (createdb)`,
      );
    }
    for (const table of tables) {
      if (MIGRATION_TABLES.has(table.name) || !dataTables.includes(table.name)) continue;
      const { rows } = await client.query(`SELECT 1 FROM "${table.name}" LIMIT 1`);
      if (rows.length > 0) {
        throw new MigrateCentralError(
          `The database is not empty (table ${table.name} has rows): migrate-central copies into a new, empty database (createdb)`,
        );
      }
    }
    return client;
  } catch (error) {
    await client.end();
    throw error;
  }
}

/** Applies this release's PostgreSQL migrations (as the service does at start). */
export async function migrateTarget(url: string): Promise<void> {
  await migratePostgres(url);
}

/** Base tables of the schemas on the search path, with their columns in order. */
export async function listTargetTables(client: pg.Client): Promise<TargetTable[]> {
  const { rows } = await client.query<{ table_name: string; columns: string[] }>(
    `SELECT c.table_name, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS columns
       FROM information_schema.columns c
       JOIN information_schema.tables t
         ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
      GROUP BY c.table_name ORDER BY c.table_name`,
  );
  return rows.map((r) => ({ name: r.table_name, columns: r.columns }));
}

/**
 * The tables in an order where every table comes after those its foreign keys name, so rows
 * can be inserted with the constraints on (the schema has no table referencing itself).
 */
export async function foreignKeyOrder(client: pg.Client, names: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT DISTINCT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
       FROM pg_constraint c
       JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  const unquote = (name: string) => name.replace(/^"(.*)"$/, '$1');
  const parents = new Map<string, Set<string>>(names.map((n) => [n, new Set()]));
  for (const { child, parent } of rows) {
    const c = unquote(child);
    const p = unquote(parent);
    if (c !== p && parents.has(c) && parents.has(p)) parents.get(c)!.add(p);
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const ready = names.filter(
      (n) => !placed.has(n) && [...parents.get(n)!].every((p) => placed.has(p)),
    );
    if (ready.length === 0) {
      throw new MigrateCentralError('The foreign keys form a cycle: no order to copy tables in');
    }
    for (const n of ready) {
      placed.add(n);
      ordered.push(n);
    }
  }
  return ordered;
}
