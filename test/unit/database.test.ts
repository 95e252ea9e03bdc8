import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/main/db/database';

describe('the database', () => {
  const dirs: string[] = [];
  const opened: OpenedDatabase[] = [];
  const open = async (dir: string) => {
    const database = await openDatabase(dir);
    opened.push(database);
    return database;
  };
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'db-test-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close().catch(() => undefined);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('lives in <data dir>/app.sqlite, in WAL mode with foreign keys enforced', async () => {
    const dir = newDir();
    const { sqlite } = await open(dir);
    expect(sqlite.name).toBe(join(dir, 'app.sqlite'));
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(() =>
      sqlite
        .prepare(
          "INSERT INTO facilities (id, organization_id, name, external_facility_code) VALUES ('f', 'no-such-org', 'F', 'F')",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
  });

  it('applies every migration once, and a second start finds nothing to do', async () => {
    const dir = newDir();
    const first = await open(dir);
    const applied = () =>
      first.sqlite.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all();
    expect(applied()).toEqual(['0001_core', '0002_advice']);
    await first.close();
    const second = await open(dir);
    expect(second.sqlite.prepare('SELECT count(*) FROM kysely_migration').pluck().get()).toBe(2);
  });

  it('keeps answering past the prepared-statement cache size (256 distinct queries)', async () => {
    const { db } = await open(':memory:');
    const first = () =>
      db.selectFrom('organizations').select('id').where('name', '=', 'x').execute();
    await first();
    for (let n = 0; n < 300; n++) {
      // A distinct SQL text each time: the literal is inlined, not bound.
      const query = db.selectFrom('organizations').select(sql<number>`${sql.lit(n)}`.as('n'));
      expect(query.compile().sql).toContain(` ${n} as`);
      await query.execute();
    }
    await expect(first()).resolves.toEqual([]);
  });
});
