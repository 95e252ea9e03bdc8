import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/database';
import { postgresMigrationProvider } from '../../src/server/db/postgres/migrations';
import { cloneTemplate, type ClonedDatabase } from '../helpers/postgres/databases';

/*
 * The PostgreSQL schema is a twin of SQLite's (src/server/db/postgres/migrations): the same
 * tables, columns, nullability, primary keys, unique keys and foreign keys, so the query builders
 * that both engines run cannot meet a column one of them lacks.
 */

/** SQLite-only machinery with no PostgreSQL counterpart (FTS5 and its id side tables). */
const SQLITE_ONLY = /^(sqlite_|kysely_|transactions_search|orders_code_search|orders_search_ids)/;
/**
 * PostgreSQL-only tables (migrations 0017_*): what several central processes share (the file
 * store, cache versions, delivery leases, the signing secret); SQLite keeps these in the data dir
 * or in the one process.
 */
const POSTGRES_ONLY = new Set([
  'stored_files',
  'cache_versions',
  'delivery_claims',
  'service_secrets',
]);

/**
 * PostgreSQL-only columns: the writing transaction of a version (0017_sync_stamps), which a pull
 * waits for; SQLite commits versions in order on its one connection and needs none. The log's
 * stored search key (0018_transactions_search_key), which SQLite's FTS5 index replaces.
 */
const POSTGRES_ONLY_COLUMNS: Record<string, string[]> = {
  sync_row_versions: ['xid', 'row_json'],
  sync_evictions: ['xid'],
  transactions: ['search_key'],
};

interface TableShape {
  columns: Record<string, { notNull: boolean }>;
  primaryKey: string[];
  unique: string[][];
  foreignKeys: string[];
}

function sqliteShape(database: OpenedDatabase): Record<string, TableShape> {
  const { sqlite } = database;
  const tables = sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all() as string[];
  const shape: Record<string, TableShape> = {};
  for (const table of tables.filter((t) => !SQLITE_ONLY.test(t))) {
    const info = sqlite.pragma(`table_info(${table})`) as {
      name: string;
      notnull: number;
      pk: number;
    }[];
    const pkColumns = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const indexes = sqlite.pragma(`index_list(${table})`) as {
      name: string;
      unique: number;
      origin: string;
      partial: number;
    }[];
    const unique = indexes
      .filter((i) => i.unique && i.origin !== 'pk' && !i.partial)
      .map((i) =>
        (sqlite.pragma(`index_info(${i.name})`) as { seqno: number; name: string }[])
          .sort((a, b) => a.seqno - b.seqno)
          .map((c) => c.name),
      );
    const fks = sqlite.pragma(`foreign_key_list(${table})`) as {
      id: number;
      seq: number;
      table: string;
      from: string;
      to: string;
      on_delete: string;
    }[];
    const byId = new Map<number, typeof fks>();
    for (const fk of fks) byId.set(fk.id, [...(byId.get(fk.id) ?? []), fk]);
    shape[table] = {
      // A rowid-alias INTEGER PRIMARY KEY is NOT NULL in effect, as every PostgreSQL key is.
      columns: Object.fromEntries(
        info.map((c) => [c.name, { notNull: c.notnull === 1 || c.pk > 0 }]),
      ),
      primaryKey: pkColumns,
      unique: unique.map((u) => [...u]).sort(),
      foreignKeys: [...byId.values()]
        .map((parts) => {
          const sorted = parts.sort((a, b) => a.seq - b.seq);
          return `(${sorted.map((p) => p.from).join(',')}) -> ${sorted[0]!.table}(${sorted
            .map((p) => p.to)
            .join(',')}) on delete ${sorted[0]!.on_delete.toLowerCase()}`;
        })
        .sort(),
    };
  }
  return shape;
}

async function postgresShape(url: string): Promise<Record<string, TableShape>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query<{
      table_name: string;
      column_name: string;
      is_nullable: string;
    }>(
      `SELECT table_name, column_name, is_nullable FROM information_schema.columns
       WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    );
    const constraints = await client.query<{
      table_name: string;
      contype: string;
      columns: string[];
      ref_table: string | null;
      ref_columns: string[] | null;
      on_delete: string;
    }>(
      `SELECT c.conrelid::regclass::text AS table_name, c.contype,
         (SELECT array_agg(a.attname::text ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY k(attnum, n)
            JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS columns,
         c.confrelid::regclass::text AS ref_table,
         (SELECT array_agg(a.attname::text ORDER BY k.n) FROM unnest(c.confkey) WITH ORDINALITY k(attnum, n)
            JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS ref_columns,
         c.confdeltype AS on_delete
       FROM pg_constraint c JOIN pg_namespace s ON s.oid = c.connamespace
       WHERE s.nspname = 'public' AND c.contype IN ('p', 'u', 'f')`,
    );
    const uniqueIndexes = await client.query<{ table_name: string; columns: string[] }>(
      `SELECT i.indrelid::regclass::text AS table_name,
         (SELECT array_agg(a.attname::text ORDER BY k.n) FROM unnest(i.indkey) WITH ORDINALITY k(attnum, n)
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum) AS columns
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace s ON s.oid = c.relnamespace
       WHERE s.nspname = 'public' AND i.indisunique AND NOT i.indisprimary AND i.indpred IS NULL
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    );
    const deleteRule: Record<string, string> = {
      a: 'no action',
      r: 'restrict',
      c: 'cascade',
      n: 'set null',
      d: 'set default',
    };
    const shape: Record<string, TableShape> = {};
    const of = (table: string) =>
      (shape[table] ??= { columns: {}, primaryKey: [], unique: [], foreignKeys: [] });
    for (const c of columns.rows) {
      if (SQLITE_ONLY.test(c.table_name) || POSTGRES_ONLY.has(c.table_name)) continue;
      if (POSTGRES_ONLY_COLUMNS[c.table_name]?.includes(c.column_name)) continue;
      of(c.table_name).columns[c.column_name] = { notNull: c.is_nullable === 'NO' };
    }
    for (const c of constraints.rows) {
      if (SQLITE_ONLY.test(c.table_name) || POSTGRES_ONLY.has(c.table_name)) continue;
      const table = of(c.table_name);
      if (c.contype === 'p') table.primaryKey = c.columns;
      else if (c.contype === 'u') table.unique.push(c.columns);
      else
        table.foreignKeys.push(
          `(${c.columns.join(',')}) -> ${c.ref_table}(${c.ref_columns!.join(',')}) on delete ${deleteRule[c.on_delete]}`,
        );
    }
    for (const i of uniqueIndexes.rows) of(i.table_name).unique.push(i.columns);
    for (const table of Object.values(shape)) {
      table.unique.sort();
      table.foreignKeys.sort();
    }
    return shape;
  } finally {
    await client.end();
  }
}

const postgres = inject('postgres');

describe.skipIf(!postgres)('the PostgreSQL schema', () => {
  let cloned: ClonedDatabase;
  let sqlite: OpenedDatabase;
  beforeAll(async () => {
    cloned = await cloneTemplate(postgres!);
    sqlite = await openDatabase(':memory:');
  });
  afterAll(async () => {
    await sqlite?.close();
    await cloned?.drop();
  });

  it('has the tables, columns, nullability and keys of the SQLite schema', async () => {
    const expected = sqliteShape(sqlite);
    const actual = await postgresShape(cloned.url);
    expect(Object.keys(expected).length).toBeGreaterThan(40);
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    for (const table of Object.keys(expected))
      expect(actual[table], table).toEqual(expected[table]);
  });

  it('comes from frozen migrations: literal SQL, importing nothing but kysely', async () => {
    const dir = fileURLToPath(new URL('../../src/server/db/postgres/migrations/', import.meta.url));
    const files = readdirSync(dir).map((f) => f.replace(/\.ts$/, ''));
    expect(files.sort()).toEqual(
      Object.keys(await postgresMigrationProvider.getMigrations()).sort(),
    );
    for (const file of files) {
      const text = readFileSync(join(dir, `${file}.ts`), 'utf8');
      const { importedFiles } = ts.preProcessFile(text, true, true);
      expect([...new Set(importedFiles.map((i) => i.fileName))], file).toEqual(['kysely']);
      expect(text, file).not.toMatch(/\$\{/);
    }
  });
});
