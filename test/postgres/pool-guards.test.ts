import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgres, type OpenedPostgres } from '../../src/server/db/postgres/open';
import { cloneTemplate, type ClonedDatabase } from '../helpers/postgres/databases';

/**
 * The guards on the service's PostgreSQL connections (db/postgres/open.ts SESSION_SETTINGS,
 * docs/operations.md): no JIT, and no statement, lock wait or forgotten transaction that lasts
 * forever. A parameter in the database URL wins, which is also how these tests shorten them.
 */
const postgres = inject('postgres');

describe.skipIf(!postgres)('the PostgreSQL pool’s session settings', () => {
  let cloned: ClonedDatabase;
  const opened: OpenedPostgres[] = [];
  beforeAll(async () => {
    cloned = await cloneTemplate(postgres!);
  });
  afterAll(async () => {
    for (const db of opened) await db.close();
    await cloned?.drop();
  });
  const open = async (parameters = '') => {
    const db = await openPostgres(`${cloned.url}${parameters}`, 4);
    opened.push(db);
    return db.db;
  };
  const show = async (db: OpenedPostgres['db'], name: string) =>
    (await sql<Record<string, string>>`SHOW ${sql.raw(name)}`.execute(db)).rows[0]![name];

  it('every pooled connection runs without JIT and with the timeouts', async () => {
    const db = await open();
    // Four at once: each of the pool's connections answers the same.
    const answers = await Promise.all(
      Array.from({ length: 4 }, async () => ({
        jit: await show(db, 'jit'),
        statement: await show(db, 'statement_timeout'),
        lock: await show(db, 'lock_timeout'),
        idle: await show(db, 'idle_in_transaction_session_timeout'),
      })),
    );
    for (const answer of answers) {
      expect(answer).toEqual({ jit: 'off', statement: '2min', lock: '1min', idle: '1min' });
    }
  });

  it('a parameter in the URL wins; a statement past its timeout fails (57014)', async () => {
    const db = await open('?statement_timeout=200&options=-c%20jit%3Don');
    expect(await show(db, 'jit')).toBe('on');
    await expect(sql`SELECT pg_sleep(2)`.execute(db)).rejects.toMatchObject({ code: '57014' });
    // The connection is fine after it.
    expect((await sql<{ n: number }>`SELECT 1 AS n`.execute(db)).rows).toEqual([{ n: 1 }]);
  });

  it('a connection left inside a transaction is ended by the server, and its locks go with it', async () => {
    const db = await open('?idle_in_transaction_session_timeout=300');
    await sql`CREATE TABLE IF NOT EXISTS guard_probe (id int PRIMARY KEY, n int)`.execute(db);
    await sql`INSERT INTO guard_probe VALUES (1, 0) ON CONFLICT DO NOTHING`.execute(db);
    // A bug's shape: BEGIN and a row lock, then the connection back to the pool, no COMMIT.
    await db.connection().execute(async (connection) => {
      await sql`BEGIN`.execute(connection);
      await sql`SELECT n FROM guard_probe WHERE id = 1 FOR UPDATE`.execute(connection);
    });
    // Another session's write of that row waits only until the server ends the forgotten one.
    const other = new pg.Client({ connectionString: cloned.url });
    await other.connect();
    try {
      const started = Date.now();
      await other.query(`UPDATE guard_probe SET n = n + 1 WHERE id = 1`);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await other.end();
    }
    // The pool drops the ended connection and answers on the others.
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => sql<{ n: number }>`SELECT n FROM guard_probe`.execute(db)),
    );
    expect(answers.map((a) => a.rows[0]!.n)).toEqual([1, 1, 1, 1]);
  });
});
