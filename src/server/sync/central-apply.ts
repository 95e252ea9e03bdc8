import { randomUUID } from 'node:crypto';
import type { ApplySql } from './apply-sql';
import { applyChanges } from './central-changes';
import { refusalTie } from './conflict-rules';
import type { ConflictField } from '../../shared/sync';
import type { PushAnswer, PushedMutation, RowChange } from './protocol';
import { Refusal } from './refusal';
import { bindable, type SqlValue } from './rows';
import { REPLICATED_BY_NAME } from './synced-tables';
import { crashPoint } from './crash';

export interface PushContext {
  sql: ApplySql;
  now: () => Date;
}

type Answer = PushAnswer & { gap: number | null };

/**
 * Applies a device's mutations in seq order, each in the transaction that advances its
 * `last_seq`: a seq already applied is skipped (a retry is safe), a gap stops the batch, and a
 * refusal rolls back that mutation only (a savepoint), records a conflict and re-stamps the rows
 * it touched, so the device's next pull puts the central's rows back. Each transaction first
 * locks the device's `sync_clients` row (FOR UPDATE on PostgreSQL; SQLite has one writer), so
 * pushes of one device apply one after the other and those of different devices in parallel.
 * A transaction holds `sql.batch` mutations at most; the answer counts all of them, and comes
 * back only after the last commit.
 */
export async function applyPush(
  context: PushContext,
  deviceId: string,
  facilityIds: ReadonlySet<string>,
  mutations: PushedMutation[],
): Promise<Answer> {
  const { sql } = context;
  const answer: Answer = {
    last_seq: 0,
    applied: 0,
    duplicates: 0,
    rejected: 0,
    conflicts: 0,
    gap: null,
  };
  const at = context.now().toISOString();
  const queue = [...mutations].sort((a, b) => a.seq - b.seq);
  do {
    const pushing = { deviceId, facilityIds, at };
    // What the batch starts from, to run it again with savepoints after an optimistic refusal.
    const pending = [...queue];
    const counted = { ...answer };
    let guarded = !sql.optimistic;
    let deadlocks = 0;
    for (;;) {
      await sql.begin();
      try {
        await applyBatch(context, pushing, queue, answer, guarded);
        await sql.exec('COMMIT');
        break;
      } catch (error) {
        const refused = error instanceof RefusedOptimistically;
        // A deadlock victim (another push took the same rows in the other order) runs again and
        // then only waits for the winner, rather than failing the device's push (5xx, retried
        // by the device seconds later).
        const again = !refused && sql.retryable(error) && deadlocks < DEADLOCK_RETRIES;
        if (!refused && !again) {
          // The push's own error is the one to answer; a ROLLBACK failing after it (a connection
          // already lost, a SQLite transaction its error already ended) must not hide it. The
          // caller makes sure no connection is left inside the transaction (central.ts
          // applyPushOnPool).
          await sql.exec('ROLLBACK').catch(() => undefined);
          throw error;
        }
        await sql.exec('ROLLBACK');
        queue.splice(0, queue.length, ...pending);
        Object.assign(answer, counted);
        if (refused) guarded = true;
        else deadlocks += 1;
      } finally {
        sql.beginUnit();
      }
    }
    // A push of several transactions (PostgreSQL): one committed, the next not begun.
    if (queue.length > 0 && answer.gap === null) crashPoint('between_push_commits');
  } while (queue.length > 0 && answer.gap === null);
  return answer;
}

const JOURNAL_ROWS = 50;
/** Times a batch chosen as a deadlock's victim runs again before the push fails (5xx). */
const DEADLOCK_RETRIES = 3;

interface Pushing {
  deviceId: string;
  facilityIds: ReadonlySet<string>;
  at: string;
}

/**
 * A mutation of a batch run without savepoints was refused: the batch is rolled back and run
 * again with a savepoint per mutation, so the refusal rolls back that mutation only.
 */
class RefusedOptimistically extends Error {}

/**
 * One transaction's part of a push: takes up to `sql.batch` mutations off the queue's front.
 * `guarded`: each mutation in a savepoint; otherwise a refusal throws RefusedOptimistically.
 */
async function applyBatch(
  context: PushContext,
  pushing: Pushing,
  queue: PushedMutation[],
  answer: Answer,
  guarded: boolean,
): Promise<void> {
  const { sql } = context;
  const { deviceId, at } = pushing;
  let last = await lockClient(sql, deviceId);
  // Written once for the whole transaction (a round trip each on PostgreSQL otherwise).
  const journal: SqlValue[][] = [];
  let applied = 0;
  while (queue.length > 0 && applied < sql.batch) {
    const mutation = queue[0]!;
    if (mutation.seq <= last) {
      answer.duplicates += 1;
      queue.shift();
      continue;
    }
    if (mutation.seq !== last + 1) {
      answer.gap = last + 1;
      break;
    }
    sql.beginUnit();
    const outcome = await applyMutation(context, pushing, mutation, guarded);
    answer[outcome === 'rejected' ? 'rejected' : 'applied'] += 1;
    if (outcome === 'partial') answer.conflicts += 1;
    journal.push([
      deviceId,
      mutation.seq,
      mutation.name,
      JSON.stringify(mutation.args),
      mutation.base_version ?? null,
      mutation.at,
      outcome,
      await sql.version(),
    ]);
    last = mutation.seq;
    applied += 1;
    queue.shift();
  }
  // At most JOURNAL_ROWS a statement, so few statement texts (SQLite's cache) and parameters.
  for (let from = 0; from < journal.length; from += JOURNAL_ROWS) {
    const rows = journal.slice(from, from + JOURNAL_ROWS);
    await sql.run(
      `INSERT INTO sync_mutations (client_id, seq, name, args, base_version, at, outcome, applied_version)
       VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      rows.flat(),
    );
  }
  await sql.run(`UPDATE sync_clients SET last_seq = ?, last_push_at = ? WHERE client_id = ?`, [
    last,
    at,
    deviceId,
  ]);
  answer.last_seq = last;
}

/**
 * Locks the device's sync_clients row and answers its last seq. The row exists after the device's
 * first push, so it is read first and inserted only when missing (one round trip, not two).
 */
async function lockClient(sql: ApplySql, deviceId: string): Promise<number> {
  const read = () =>
    sql.get<{ last_seq: number }>(
      `SELECT last_seq FROM sync_clients WHERE client_id = ?${sql.forUpdate}`,
      [deviceId],
    );
  let client = await read();
  if (!client) {
    await sql.run(`INSERT INTO sync_clients (client_id) VALUES (?) ON CONFLICT DO NOTHING`, [
      deviceId,
    ]);
    client = await read();
  }
  return Number(client!.last_seq);
}

/**
 * One mutation. `guarded`: in a savepoint, so a refusal rolls back this mutation only and is
 * recorded as a conflict. Unguarded (the common case: nothing refused, nothing to roll back), a
 * refusal or a constraint the database reports throws RefusedOptimistically, and the batch runs
 * again guarded. A temporary failure fails the push either way (5xx, retried).
 */
async function applyMutation(
  context: PushContext,
  pushing: Pushing,
  mutation: PushedMutation,
  guarded: boolean,
): Promise<MutationOutcome> {
  const { sql } = context;
  const { deviceId, facilityIds, at } = pushing;
  const changes = mutation.args.changes;
  let fieldConflicts;
  if (guarded) await sql.exec('SAVEPOINT mutation');
  try {
    fieldConflicts = await applyChanges({ sql, deviceId, facilityIds, at }, changes);
    if (guarded) await sql.exec('RELEASE SAVEPOINT mutation');
  } catch (error) {
    const refusal = error instanceof Refusal ? error : sql.refusalOf(error);
    if (!guarded) throw refusal ? new RefusedOptimistically() : error;
    await sql.exec('ROLLBACK TO SAVEPOINT mutation');
    await sql.exec('RELEASE SAVEPOINT mutation');
    if (!refusal) throw error;
    await recordConflict(sql, deviceId, mutation, refusal, at);
    await restamp(sql, changes);
    return 'rejected';
  }
  return fieldOutcome(sql, deviceId, mutation, fieldConflicts, at);
}

/** An applied mutation's outcome: 'partial' when fields conflicted, recorded and re-stamped. */
async function fieldOutcome(
  sql: ApplySql,
  deviceId: string,
  mutation: PushedMutation,
  fieldConflicts: ConflictField[],
  at: string,
): Promise<MutationOutcome> {
  if (fieldConflicts.length === 0) return 'applied';
  const changes = mutation.args.changes;
  // The other fields went in; the clerk decides on these (the central's values come down).
  await recordConflict(sql, deviceId, mutation, new Refusal(FIELD_CONFLICT, fieldConflicts), at);
  await restamp(
    sql,
    changes.filter((c) =>
      fieldConflicts.some((f) => f.table === c.t && JSON.stringify(f.key) === JSON.stringify(c.k)),
    ),
  );
  return 'partial';
}

export const FIELD_CONFLICT = 'Changed on the central service since this workstation read it';
type MutationOutcome = 'applied' | 'partial' | 'rejected';

async function recordConflict(
  sql: ApplySql,
  deviceId: string,
  mutation: PushedMutation,
  refusal: Refusal,
  at: string,
): Promise<void> {
  const changes = mutation.args.changes;
  // What was refused and whom it concerns, from the stored rows (conflict-rules.ts).
  const tie = await refusalTie(sql, deviceId, changes, refusal.fields);
  await sql.run(
    `INSERT INTO sync_conflicts (id, client_id, seq, mutation, order_id, facility_id, brand_id,
         reason, fields_json, changes_json, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      randomUUID(),
      deviceId,
      mutation.seq,
      mutation.name,
      tie.orderId,
      tie.facilityId,
      tie.brandId,
      refusal.message,
      JSON.stringify(tie.fields),
      JSON.stringify(changes),
      at,
      at,
    ],
  );
}

/**
 * The device applied the refused mutation locally. Giving every row it touched a new version
 * (a tombstone where the central has no such row) makes the device's next pull overwrite them.
 */
async function restamp(sql: ApplySql, changes: RowChange[]): Promise<void> {
  for (const change of changes) {
    const table = REPLICATED_BY_NAME.get(change.t);
    if (!table || change.k.length !== table.key.length) continue;
    await sql.restamp(table, change.k.map(bindable));
  }
}
