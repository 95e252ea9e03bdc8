import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PushedMutation, RowChange } from '../../src/server/sync/protocol';
import { DEVICES } from './helpers/cluster';
import { startPushCentral, type PushCentral } from './helpers/push-central';

/**
 * Two pushes that take the same rows in opposite orders deadlock on PostgreSQL; the database
 * ends one of them (SQLSTATE 40P01). The central runs the victim's batch again, so both pushes
 * answer with every mutation applied once, instead of one failing (central-apply.ts).
 */
const X = '0d000000-0000-4000-8000-000000000001'; // Reno, Open
const Y = '0d000000-0000-4000-8000-000000000003'; // Reno, Picking
const Z = '0d000000-0000-4000-8000-000000000004'; // Reno, Picking

type Stored = Map<string, Record<string, unknown>>;
/** An edit of one column from the value the device read (`stored`), so nothing conflicts. */
const edit = (stored: Stored, id: string, column: string, value: string): RowChange => ({
  t: 'orders',
  op: 'U',
  k: [id],
  old: { [column]: stored.get(id)![column] },
  new: { [column]: value },
});

const mutationsOf = (changes: RowChange[]): PushedMutation[] =>
  changes.map((change, i) => ({
    seq: i + 1,
    name: 'TEST',
    args: { changes: [change] },
    at: new Date().toISOString(),
  }));

describe.skipIf(!inject('postgres'))('pushes that deadlock each other (PostgreSQL)', () => {
  let central: PushCentral;
  let admin: pg.Client;
  beforeAll(async () => {
    central = await startPushCentral('postgres');
    admin = new pg.Client({ connectionString: central.service.databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await central?.close();
  });

  const deadlocks = async () =>
    Number(
      (
        await admin.query<{ n: string }>(
          'SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()',
        )
      ).rows[0]!.n,
    );
  const waitingOnLocks = async () =>
    Number(
      (
        await admin.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      ).rows[0]!.n,
    );

  it('the victim runs again: both pushes apply all their mutations, once', async () => {
    const before = await deadlocks();
    const read = await admin.query<{
      id: string;
      po_number: string | null;
      dept_number: string | null;
    }>('SELECT id, po_number, dept_number FROM orders WHERE id = ANY($1)', [[X, Y, Z]]);
    const stored: Stored = new Map(read.rows.map((row) => [row.id, row]));
    // Both pushes stop at Z, which a third transaction holds: w1 holding X, w2 holding Y.
    const holder = new pg.Client({ connectionString: central.service.databaseUrl });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM orders WHERE id = $1 FOR UPDATE', [Z]);
    /** The device's edits of `column` on `rows`, in that order. */
    const pushOf = (device: typeof DEVICES.w1, column: string, rows: string[], tag: string) =>
      central.push(
        device,
        mutationsOf(rows.map((id) => edit(stored, id, column, `${tag}-${id.slice(-1)}`))),
      );
    const w1 = pushOf(DEVICES.w1, 'po_number', [X, Z, Y], 'W1');
    const w2 = pushOf(DEVICES.w2, 'dept_number', [Y, Z, X], 'W2');
    const settled = Promise.allSettled([w1, w2]);
    const deadline = Date.now() + 10_000;
    while ((await waitingOnLocks()) < 2) {
      if (Date.now() > deadline) throw new Error('the pushes never reached the held row');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The first in line takes Z and waits for the other's Y; the other waits for Z: a cycle.
    await holder.query('ROLLBACK');
    await holder.end();
    const answers = await settled;

    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : String(a.reason)))).toEqual([
      expect.objectContaining({ applied: 3, rejected: 0, conflicts: 0, last_seq: 3 }),
      expect.objectContaining({ applied: 3, rejected: 0, conflicts: 0, last_seq: 3 }),
    ]);
    expect(await deadlocks()).toBe(before + 1);
    const { rows } = await admin.query<{ id: string; po_number: string; dept_number: string }>(
      'SELECT id, po_number, dept_number FROM orders WHERE id = ANY($1) ORDER BY id',
      [[X, Y, Z]],
    );
    expect(rows).toEqual([
      { id: X, po_number: 'W1-1', dept_number: 'W2-1' },
      { id: Y, po_number: 'W1-3', dept_number: 'W2-3' },
      { id: Z, po_number: 'W1-4', dept_number: 'W2-4' },
    ]);
    const journal = await admin.query<{ client_id: string; n: string }>(
      `SELECT client_id, count(*) AS n FROM sync_mutations
        WHERE client_id = ANY($1) GROUP BY client_id ORDER BY client_id`,
      [[DEVICES.w1.id, DEVICES.w2.id]],
    );
    expect(journal.rows.map((r) => Number(r.n))).toEqual([3, 3]);
  });
});
