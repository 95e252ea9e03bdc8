import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApplySql } from '../../src/server/sync/apply-sql';
import { postgresApplySql, postgresClientApplySql } from '../../src/server/sync/apply-sql-postgres';
import { applyPush } from '../../src/server/sync/central-apply';
import { applyPushOnPool } from '../../src/server/sync/central';
import type { PushedMutation } from '../../src/server/sync/protocol';
import { DEVICES, RENO, startCentral, type TestCentral } from './helpers/cluster';
import { centralQuery, deviceLastSeq, signInDevice, syncCall } from './helpers/raw-push';

/**
 * A push on a PostgreSQL central holds one pooled connection through BEGIN, a savepoint per
 * mutation and COMMIT. Whatever fails between two of those statements (a statement, the COMMIT,
 * the ROLLBACK after it, an error thrown in the catch of a refused mutation), the connection goes
 * back to the pool outside any transaction and holding no lock, and the device's next push goes
 * through (issue 17: a connection returned inside its transaction would hold the device's
 * sync_clients row, and every later push of the device would wait on it).
 */
const postgres = inject('postgres');

type Kind = 'begin' | 'get' | 'run' | 'exec';
/** Where to fail: the n-th call of a kind whose text matches, before or after it ran. */
interface Fault {
  kind: Kind;
  text?: RegExp;
  when: 'before' | 'after';
}

/** The port with `faults` injected: each fails once, as an error that is no refusal. */
function faulty(port: ApplySql, faults: Fault[]): ApplySql {
  const pending = [...faults];
  const trip = async <T>(kind: Kind, text: string, call: () => Promise<T>): Promise<T> => {
    const index = pending.findIndex((f) => f.kind === kind && (!f.text || f.text.test(text)));
    if (index < 0) return call();
    const [fault] = pending.splice(index, 1);
    if (fault!.when === 'after') await call();
    throw new Error(`injected: ${fault!.when} ${kind} ${text.slice(0, 40)}`);
  };
  return {
    ...port,
    get: (text, params) => trip('get', text, () => port.get(text, params)),
    run: (text, params) => trip('run', text, () => port.run(text, params)),
    begin: () => trip('begin', 'BEGIN', () => port.begin()),
    exec: (text) => trip('exec', text, () => port.exec(text)),
    refusalOf: (error) => port.refusalOf(error),
  };
}

describe.skipIf(!postgres)('a failing push on a PostgreSQL central (every error path)', () => {
  let central: TestCentral;
  let order: { id: string; updated_at: string };
  beforeAll(async () => {
    central = await startCentral({ engine: 'postgres' });
    const rows = await centralQuery(
      central,
      `SELECT id, updated_at FROM orders WHERE facility_id = ? AND status NOT IN ('Shipped', 'Cancelled')
        ORDER BY id LIMIT 1`,
      RENO,
    );
    order = rows[0] as { id: string; updated_at: string };
  });
  afterAll(async () => {
    await central?.close();
  });

  /** Two mutations after the device's last seq: an order edit that applies, and a refused one. */
  async function nextMutations(): Promise<PushedMutation[]> {
    const last = await deviceLastSeq(central, DEVICES.w1.id);
    const at = new Date().toISOString();
    return [
      {
        seq: last + 1,
        name: 'EDIT',
        at,
        args: {
          changes: [
            {
              t: 'orders',
              op: 'U',
              k: [order.id],
              old: { updated_at: order.updated_at },
              new: { updated_at: `2026-11-26T09:00:00.${String(last).padStart(3, '0')}Z` },
            },
          ],
        },
      },
      {
        seq: last + 2,
        name: 'REFUSED',
        at,
        args: { changes: [{ t: 'no_such_table', op: 'I', k: ['x'], new: { id: 'x' } }] },
      },
    ];
  }

  /**
   * Sessions of the central's database inside a transaction, and the locks they hold, seen from a
   * connection of its own (one of the pool's could be the very connection left behind).
   */
  async function ownClient<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: central.databaseUrl });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  }
  const openTransactions = () =>
    ownClient(async (client) => {
      const { rows } = await client.query<{ pid: number; state: string; locks: number }>(
        `SELECT a.pid, a.state, (SELECT count(*)::int FROM pg_locks l WHERE l.pid = a.pid) AS locks
           FROM pg_stat_activity a
          WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
            AND a.state LIKE 'idle in transaction%'`,
      );
      return rows;
    });

  const pushOf = (port: (client: pg.PoolClient) => ApplySql, mutations: PushedMutation[]) =>
    applyPushOnPool(
      central.context,
      port,
      DEVICES.w1.id,
      new Set(DEVICES.w1.facility_ids),
      mutations,
    );

  const faults: [string, Fault[]][] = [
    ['BEGIN ran, then a throw before the try', [{ kind: 'begin', when: 'after' }]],
    [
      'the device row locked, then a throw',
      [{ kind: 'get', text: /FROM sync_clients/, when: 'after' }],
    ],
    ['a SAVEPOINT that fails', [{ kind: 'exec', text: /^SAVEPOINT/, when: 'before' }]],
    [
      'a write that ran inside the savepoint, then a throw',
      [{ kind: 'run', text: /^UPDATE orders/, when: 'after' }],
    ],
    [
      'a ROLLBACK TO SAVEPOINT that fails (a refused mutation)',
      [{ kind: 'exec', text: /^ROLLBACK TO SAVEPOINT/, when: 'before' }],
    ],
    ['a COMMIT that fails', [{ kind: 'exec', text: /^COMMIT$/, when: 'before' }]],
    [
      'a COMMIT that fails, then a ROLLBACK that fails',
      [
        { kind: 'exec', text: /^COMMIT$/, when: 'before' },
        { kind: 'exec', text: /^ROLLBACK$/, when: 'before' },
      ],
    ],
    [
      'a failed write, then a ROLLBACK that fails',
      [
        { kind: 'run', text: /^INSERT INTO sync_mutations/, when: 'after' },
        { kind: 'exec', text: /^ROLLBACK$/, when: 'before' },
      ],
    ],
  ];

  for (const [name, injected] of faults) {
    it(`${name}: the connection comes back clean and the next push goes through`, async () => {
      const mutations = await nextMutations();
      const before = await deviceLastSeq(central, DEVICES.w1.id);
      await expect(
        pushOf((client) => faulty(postgresClientApplySql(client), injected), mutations),
      ).rejects.toThrow(/injected/);
      expect(await openTransactions()).toEqual([]);
      expect(await deviceLastSeq(central, DEVICES.w1.id)).toBe(before);
      // Every connection of the pool at once: none of them is still inside the failed push.
      await Promise.all(
        Array.from({ length: 10 }, () => sql`SELECT 1`.execute(central.context.db)),
      );
      // The device's retry over HTTP: not held by a lock of the failed push.
      const auth = await signInDevice(central.url, DEVICES.w1);
      const retry = await syncCall(central.url, '/api/sync/v1/push', {
        method: 'POST',
        auth,
        body: JSON.stringify({ mutations }),
      });
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.body).toMatchObject({ applied: 1, rejected: 1, last_seq: before + 2 });
      order.updated_at = mutations[0]!.args.changes[0]!.new!.updated_at as string;
    });
  }

  it('the check sees a leak: the same fault without the pool guard leaves the lock held', async () => {
    const mutations = await nextMutations();
    await expect(
      central.context.db.connection().execute(async (connection) => {
        const port = faulty(postgresApplySql(connection), [
          { kind: 'get', text: /FROM sync_clients/, when: 'after' },
          { kind: 'exec', text: /^ROLLBACK$/, when: 'before' },
        ]);
        await applyPush(
          { sql: port, now: () => new Date() },
          DEVICES.w1.id,
          new Set(DEVICES.w1.facility_ids),
          mutations,
        );
      }),
    ).rejects.toThrow(/injected/);
    const open = await openTransactions();
    expect(open).toHaveLength(1);
    expect(open[0]!.locks).toBeGreaterThan(0);
    // Ended here rather than by idle_in_transaction_session_timeout a minute later.
    await ownClient((client) => client.query(`SELECT pg_terminate_backend($1)`, [open[0]!.pid]));
  });
});
