import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/database';
import { migrationProvider } from '../../src/server/db/migrations';
import {
  billingRollupTriggerNames,
  createBillingRollupTriggers,
} from '../../src/server/billing/rollup';

/*
 * Migrations are frozen (src/server/db/migrations.ts): each one is a file of its owning feature
 * holding its SQL literally, so a database upgraded one release at a time ends with the schema a
 * fresh install gets, and a later change to live code cannot alter what an old migration does.
 */

const SERVER = fileURLToPath(new URL('../../src/server/', import.meta.url));

/** Every `<feature>/migrations/*.ts` file, with its feature and migration name. */
function migrationFiles() {
  const files: { feature: string; name: string; path: string }[] = [];
  for (const feature of readdirSync(SERVER, { withFileTypes: true })) {
    if (!feature.isDirectory()) continue;
    const dir = join(SERVER, feature.name, 'migrations');
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    for (const entry of entries) {
      files.push({
        feature: feature.name,
        name: entry.replace(/\.ts$/, ''),
        path: join(dir, entry),
      });
    }
  }
  return files;
}

interface MasterRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** The schema as SQLite stores it, whitespace normalised. */
function schemaOf(sqlite: SQLite.Database) {
  const rows = sqlite
    .prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name')
    .all() as MasterRow[];
  return rows.map((row) => ({ ...row, sql: row.sql?.replace(/\s+/g, ' ').trim() ?? null }));
}

/**
 * Rows an install had written by 0006 (the releases before fulfilment), so that the later
 * migrations which fill or index existing rows run on data, as they do on an upgrade.
 */
function writeEarlyRows(sqlite: SQLite.Database) {
  const at = '2026-01-02T03:04:05.000Z';
  sqlite.exec(`
    INSERT INTO organizations (id, name) VALUES ('o1', 'Org');
    INSERT INTO facilities (id, organization_id, name, external_facility_code)
      VALUES ('f1', 'o1', 'Facility', 'F1');
    INSERT INTO brands (id, name) VALUES ('b1', 'Brand');
    INSERT INTO retailers (id, name) VALUES ('r1', 'Retailer');
    INSERT INTO orders (id, brand_id, retailer_id, facility_id, picksheet_code, po_number, status,
      created_at, updated_at) VALUES ('ord1', 'b1', 'r1', 'f1', 'PS-1', 'PO-1', 'NEW', '${at}', '${at}');
    INSERT INTO pallets (id, order_id, status, created_at) VALUES ('p1', 'ord1', 'OPEN', '${at}');
    INSERT INTO transactions (transaction_id, action_type, action_type_label, facility_id, order_id,
      duration_ms, execution_status, request_method, request_url, created_at, updated_at)
      VALUES ('t1', 'SEND_ASN', 'Send ASN', 'f1', 'ord1', 5, 'SUCCESS', 'POST', 'https://a.example/x',
        '${at}', '${at}');
  `);
}

describe('the migrations', () => {
  const opened: OpenedDatabase[] = [];
  const stepped: Kysely<unknown>[] = [];
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
    for (const db of stepped.splice(0)) await db.destroy();
  });

  const fresh = async () => {
    const database = await openDatabase(':memory:');
    opened.push(database);
    return database;
  };

  it('upgrade an install one at a time from the oldest schema to the schema of a fresh one', async () => {
    const sqlite = new SQLite(':memory:');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    stepped.push(db);
    const migrator = new Migrator({ db, provider: migrationProvider });
    const names = Object.keys(await migrationProvider.getMigrations()).sort();
    const applied: string[] = [];
    for (;;) {
      const { error, results } = await migrator.migrateUp();
      expect(error).toBeUndefined();
      if (!results?.length) break;
      expect(results.map((r) => r.status)).toEqual(['Success']);
      applied.push(results[0]!.migrationName);
      if (results[0]!.migrationName === '0006_order_bol') writeEarlyRows(sqlite);
    }
    expect(applied).toEqual(names);

    const { sqlite: freshSqlite } = await fresh();
    expect(schemaOf(sqlite)).toEqual(schemaOf(freshSqlite));
    // The upgrade filled what later migrations derive from the rows already there.
    expect(sqlite.prepare('SELECT order_id, pallets FROM order_billing_totals').all()).toEqual([
      { order_id: 'ord1', pallets: 1 },
    ]);
    expect(
      sqlite.prepare('SELECT transaction_id FROM transactions_search_ids').pluck().all(),
    ).toEqual(['t1']);
    expect(sqlite.prepare('SELECT order_id FROM orders_search_ids').pluck().all()).toEqual([
      'ord1',
    ]);
  });

  it('installed the billing triggers that the live rollup rebuilds after a bulk load', async () => {
    const { sqlite, db } = await fresh();
    const triggers = () =>
      sqlite
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        .all() as { name: string; sql: string }[];
    const names = billingRollupTriggerNames();
    const installed = triggers().filter((t) => names.includes(t.name));
    expect(installed.map((t) => t.name).sort()).toEqual([...names].sort());
    for (const name of names) await sql.raw(`DROP TRIGGER ${name}`).execute(db);
    await createBillingRollupTriggers(db as unknown as Kysely<unknown>);
    expect(triggers().filter((t) => names.includes(t.name))).toEqual(installed);
  });

  it('are one file each, named by their key, under the feature that owns them', async () => {
    const migrations = await migrationProvider.getMigrations();
    const files = migrationFiles();
    expect(files.map((f) => f.name).sort()).toEqual(Object.keys(migrations).sort());
    for (const file of files) {
      expect(file.name).toMatch(/^\d{4}_[a-z0-9_]+$/);
      const module = (await import(file.path)) as { up?: unknown };
      expect(migrations[file.name]?.up, file.name).toBe(module.up);
    }
  });

  it('import nothing but kysely', () => {
    const files = migrationFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file.path, 'utf8'), true, true);
      const specifiers = [...new Set(importedFiles.map((i) => i.fileName))];
      expect(specifiers, `${file.feature}/migrations/${file.name}`).toEqual(['kysely']);
    }
  });
});
