import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/database';
import { migrationProvider } from '../../src/server/db/migrations';
import { loadOrCreateSecret } from '../../src/server/access/tokens';
import { serviceEnvironment, sqliteNativeBinding } from '../../src/server/db/native-binding';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the database', () => {
  const dirs: string[] = [];
  const opened: OpenedDatabase[] = [];
  const open = async (dir: string, env?: NodeJS.ProcessEnv) => {
    const database = await openDatabase(dir, env);
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
    const all = Object.keys(await migrationProvider.getMigrations()).sort();
    expect(all.slice(0, 2)).toEqual(['0001_core', '0002_advice']);
    expect(applied()).toEqual(all);
    await first.close();
    const second = await open(dir);
    expect(second.sqlite.prepare('SELECT count(*) FROM kysely_migration').pluck().get()).toBe(
      all.length,
    );
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

  it('fsyncs every commit (synchronous = FULL), so an acknowledged write survives a power cut', async () => {
    const { sqlite } = await open(newDir());
    // 2 = FULL (0 OFF, 1 NORMAL, 3 EXTRA); the pragma is per connection, so read it back here.
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
  });

  it.skipIf(process.platform === 'win32')(
    'makes a new data dir 0700 and the database files 0600',
    async () => {
      const dir = join(newDir(), 'nested', 'data');
      const { sqlite } = await open(dir);
      sqlite.prepare('CREATE TABLE probe (x)').run(); // a write, so the WAL and shm exist
      loadOrCreateSecret(dir);
      expect(modeOf(dir)).toBe(0o700);
      for (const name of ['app.sqlite', 'app.sqlite-wal', 'app.sqlite-shm', 'jwt-secret.key']) {
        expect([name, modeOf(join(dir, name))]).toEqual([name, 0o600]);
      }
    },
  );

  it.skipIf(process.platform === 'win32')(
    'tightens an existing data dir and files that were world-readable',
    async () => {
      const dir = newDir();
      const first = await open(dir);
      first.sqlite.prepare('CREATE TABLE probe (x)').run();
      loadOrCreateSecret(dir);
      await first.close();
      // As an older version (or a careless copy) would have left them.
      chmodSync(dir, 0o755);
      for (const name of ['app.sqlite', 'jwt-secret.key']) chmodSync(join(dir, name), 0o644);
      writeFileSync(join(dir, 'app.sqlite-wal'), '', { mode: 0o644 });
      writeFileSync(join(dir, 'app.sqlite-shm'), '', { mode: 0o644 });
      chmodSync(join(dir, 'app.sqlite-wal'), 0o644);
      chmodSync(join(dir, 'app.sqlite-shm'), 0o644);

      const { sqlite } = await open(dir);
      sqlite.prepare('INSERT INTO probe VALUES (1)').run();
      loadOrCreateSecret(dir);
      expect(modeOf(dir)).toBe(0o700);
      for (const name of ['app.sqlite', 'app.sqlite-wal', 'app.sqlite-shm', 'jwt-secret.key']) {
        expect([name, modeOf(join(dir, name))]).toEqual([name, 0o600]);
      }
    },
  );

  it('loads the native module named by BETTER_SQLITE3_BINDING only when not packaged', async () => {
    const binding = join(newDir(), 'not-a-module.node');
    writeFileSync(binding, 'not a shared object');
    // Honoured in development: this file is not a loadable module, so opening fails.
    await expect(open(':memory:', { BETTER_SQLITE3_BINDING: binding })).rejects.toThrow();
    // Ignored when the Electron main process says the app is packaged.
    const packaged = await open(':memory:', {
      BETTER_SQLITE3_BINDING: binding,
      FULFILLMENT_APP_PACKAGED: '1',
    });
    expect(packaged.sqlite.open).toBe(true);
  });
});

describe('the native-module decision', () => {
  it('honours BETTER_SQLITE3_BINDING in development and ignores it in a packaged app', () => {
    expect(sqliteNativeBinding({ BETTER_SQLITE3_BINDING: '/x/b.node' })).toBe('/x/b.node');
    expect(sqliteNativeBinding({})).toBeUndefined();
    expect(sqliteNativeBinding({ BETTER_SQLITE3_BINDING: '' })).toBeUndefined();
    expect(
      sqliteNativeBinding({ BETTER_SQLITE3_BINDING: '/x/b.node', FULFILLMENT_APP_PACKAGED: '1' }),
    ).toBeUndefined();
  });

  it('the packaged main process drops the variable and marks the service as packaged', () => {
    const env = { BETTER_SQLITE3_BINDING: '/evil.node', PATH: '/bin' };
    const packaged = serviceEnvironment(env, true);
    expect(packaged).toEqual({ PATH: '/bin', FULFILLMENT_APP_PACKAGED: '1' });
    expect(sqliteNativeBinding(packaged)).toBeUndefined();
    expect(env.BETTER_SQLITE3_BINDING).toBe('/evil.node'); // the caller's env is not changed

    const development = serviceEnvironment({ ...env, FULFILLMENT_APP_PACKAGED: '1' }, false);
    // A development run cannot inherit a stale "packaged" mark from its own environment.
    expect(development).toEqual({ BETTER_SQLITE3_BINDING: '/evil.node', PATH: '/bin' });
    expect(sqliteNativeBinding(development)).toBe('/evil.node');
  });
});
