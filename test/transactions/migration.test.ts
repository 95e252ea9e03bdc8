import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { migrationProvider } from '../../src/server/db/migrations';
import { txId } from './fixtures';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

it('migration 0008 indexes and counts the rows a database already has', async () => {
  dir = mkdtempSync(join(tmpdir(), 'fi-tx-migration-'));
  const file = join(dir, 'app.sqlite');
  const early = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(file) }) });
  const { error } = await new Migrator({ db: early, provider: migrationProvider }).migrateTo(
    '0007_fulfilment',
  );
  expect(error).toBeUndefined();
  await early.destroy();
  const raw = new SQLite(file);
  const insert = raw.prepare(`INSERT INTO transactions (transaction_id, action_type,
    action_type_label, facility_id, duration_ms, error_message, execution_status, request_method,
    request_url, created_at, updated_at) VALUES (?, 'SEND_ASN', 'Send ASN', ?, 5, ?, ?, 'POST', ?, ?, ?)`);
  insert.run(
    txId(1),
    'f1',
    'Old TIMEOUT',
    'FAILURE',
    'https://a.example/x',
    '2026-01-01T10:00:00.000Z',
    '2026-01-01T10:00:00.000Z',
  );
  insert.run(
    txId(2),
    'f1',
    null,
    'SUCCESS',
    'https://b.example/y',
    '2026-01-02T10:00:00.000Z',
    '2026-01-02T10:00:00.000Z',
  );
  insert.run(
    txId(3),
    null,
    null,
    'SUCCESS',
    'https://b.example/z',
    '2026-01-02T11:00:00.000Z',
    '2026-01-02T11:00:00.000Z',
  );
  raw.close();

  const database = await openDatabase(dir);
  try {
    const all = (query: string, ...params: unknown[]) =>
      database.sqlite.prepare(query).all(...params);
    const search = (term: string) =>
      all(
        `SELECT m.transaction_id AS id FROM transactions_search s
          JOIN transactions_search_ids m ON m.id = s.rowid
          WHERE transactions_search MATCH ? ORDER BY id`,
        `"${term}"`,
      ).map((row) => (row as { id: string }).id);
    expect(search('timeout')).toEqual([txId(1)]);
    expect(search('b.example')).toEqual([txId(2), txId(3)]);
    expect(
      all(
        `SELECT day, facility_key, has_error, n FROM transaction_counts ORDER BY day, facility_key, has_error`,
      ),
    ).toEqual([
      { day: '', facility_key: '', has_error: 0, n: 1 },
      { day: '', facility_key: 'f1', has_error: 0, n: 1 },
      { day: '', facility_key: 'f1', has_error: 1, n: 1 },
      { day: '2026-01-01', facility_key: 'f1', has_error: 1, n: 1 },
      { day: '2026-01-02', facility_key: '', has_error: 0, n: 1 },
      { day: '2026-01-02', facility_key: 'f1', has_error: 0, n: 1 },
    ]);
  } finally {
    await database.close();
  }
});
