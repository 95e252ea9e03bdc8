import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { poolOf } from '../../src/server/db/postgres/pool';
import type { PullPage } from '../../src/server/sync/protocol';
import { preparedRun, pullPageOnPool, type Run } from '../../src/server/sync/pull.postgres';
import { DEVICES, startCentral, type TestCentral } from './helpers/cluster';
import { signInDevice, syncCall } from './helpers/raw-push';

/**
 * A pull's page on a PostgreSQL central holds one pooled connection through BEGIN, its named
 * statements and COMMIT (pull.postgres.ts pullPageOnPool). Whatever fails in between, the
 * connection never goes back to the pool inside its REPEATABLE READ transaction (it would hold
 * its snapshot, and with it the xmin every device's pull waits on), and the next pull works.
 */
const postgres = inject('postgres');

const device = { id: DEVICES.w1.id, facilityIds: DEVICES.w1.facility_ids };

/** `run` failing at its `at`-th statement (0: the head), before or after that statement ran. */
const failingAt =
  (at: number, when: 'before' | 'after') =>
  (client: pg.PoolClient): Run => {
    const run = preparedRun(client);
    let n = 0;
    return async (text, values) => {
      const index = n++;
      if (index !== at) return run(text, values);
      if (when === 'after') await run(text, values);
      throw new Error(`injected: ${when} statement ${index}`);
    };
  };

/** The same runner, with the client's COMMIT failing. */
const failingCommit = (client: pg.PoolClient): Run => {
  const query = client.query.bind(client) as (text: unknown, ...rest: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) =>
    text === 'COMMIT' ? Promise.reject(new Error('injected: COMMIT')) : query(text, ...rest);
  return preparedRun(client);
};

describe.skipIf(!postgres)('a failing pull on a PostgreSQL central', () => {
  let central: TestCentral;
  let cursor: string;
  beforeAll(async () => {
    central = await startCentral({ engine: 'postgres' });
    // A cursor inside a window, so a page runs every statement (evictions too).
    const first = await pullPageOnPool(pool(), preparedRun, {
      device,
      cursor: undefined,
      limit: 5,
    });
    cursor = (JSON.parse(first.json) as PullPage).cursor;
  });
  afterAll(async () => {
    await central?.close();
  });

  const pool = () => poolOf(central.context.db)!;

  /** Sessions of the central's database inside a transaction, seen from a connection of its own. */
  async function openTransactions() {
    const client = new pg.Client({ connectionString: central.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number; state: string }>(
        `SELECT pid, state FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND state LIKE 'idle in transaction%'`,
      );
      return rows;
    } finally {
      await client.end();
    }
  }

  const faults: [string, (client: pg.PoolClient) => Run][] = [
    ['the head fails', failingAt(0, 'before')],
    ['the head ran, then a throw', failingAt(0, 'after')],
    // The first pull (beforeAll) asked for the columns sent, once per process: 1 is the page.
    ['the page query fails', failingAt(1, 'before')],
    ['the page query ran, then a throw', failingAt(1, 'after')],
    ['the evictions query ran, then a throw', failingAt(2, 'after')],
    ['the COMMIT fails', failingCommit],
  ];

  for (const [name, run] of faults) {
    it(`${name}: no connection stays in a transaction, and the next pull works`, async () => {
      await expect(pullPageOnPool(pool(), run, { device, cursor, limit: 5 })).rejects.toThrow(
        /injected/,
      );
      expect(await openTransactions()).toEqual([]);
      // Every connection of the pool at once: none of them is still inside the failed page.
      await Promise.all(
        Array.from({ length: 10 }, () => sql`SELECT 1`.execute(central.context.db)),
      );
      const auth = await signInDevice(central.url, DEVICES.w1);
      const next = await syncCall(
        central.url,
        `/api/sync/v1/pull?limit=5&cursor=${encodeURIComponent(cursor)}`,
        { auth },
      );
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      expect((next.body as unknown as PullPage).changes.length).toBeGreaterThan(0);
    });
  }

  it('the check sees a leak: a client returned plainly after a failure stays in its transaction', async () => {
    const client = await pool().connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query('SELECT 1');
    client.release();
    try {
      expect(await openTransactions()).toHaveLength(1);
    } finally {
      const again = await pool().connect();
      await again.query('ROLLBACK');
      again.release();
    }
  });
});
