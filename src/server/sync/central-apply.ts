import { randomUUID } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import { FINAL_STATUSES } from '../../shared/orders';
import type { ConflictField } from '../../shared/sync';
import { columnsOf, prepared } from './columns';
import { guardConflictChanges, refusalTie } from './conflict-rules';
import type { PushAnswer, PushedMutation, RowChange } from './protocol';
import type { CentralStamps } from './stamps';
import {
  describe,
  evaluateOn,
  guardChange,
  isAppendOrSendRecord,
  keepSettledOutcome,
  type PlannedChange,
  type Pusher,
  type Row,
} from './push-guards';
import { Refusal } from './refusal';
import { bindable, keyWhere } from './rows';
import { REPLICATED_BY_NAME, type ReplicatedTable } from './synced-tables';

export interface PushContext {
  sqlite: SQLite.Database;
  stamps: CentralStamps;
  now: () => Date;
}

/**
 * Applies a device's mutations in seq order, in one transaction that also advances its
 * `last_seq`: a seq already applied is skipped (a retry is safe), a gap stops the batch, and a
 * refusal rolls back that mutation only (a savepoint), records a conflict and re-stamps the rows
 * it touched, so the device's next pull puts the central's rows back. Must run while the caller
 * holds Kysely's connection (db.connection()), since it uses the SQLite handle directly.
 */
export function applyPush(
  context: PushContext,
  deviceId: string,
  facilityIds: ReadonlySet<string>,
  mutations: PushedMutation[],
): PushAnswer & { gap: number | null } {
  const { sqlite } = context;
  const answer = {
    last_seq: 0,
    applied: 0,
    duplicates: 0,
    rejected: 0,
    conflicts: 0,
    gap: null as number | null,
  };
  const at = context.now().toISOString();
  sqlite.transaction(() => {
    prepared(sqlite, `INSERT INTO sync_clients (client_id) VALUES (?) ON CONFLICT DO NOTHING`).run(
      deviceId,
    );
    let last = (
      prepared(sqlite, `SELECT last_seq FROM sync_clients WHERE client_id = ?`).get(deviceId) as {
        last_seq: number;
      }
    ).last_seq;
    const record = prepared(
      sqlite,
      `INSERT INTO sync_mutations (client_id, seq, name, args, base_version, at, outcome, applied_version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const mutation of [...mutations].sort((a, b) => a.seq - b.seq)) {
      if (mutation.seq <= last) {
        answer.duplicates += 1;
        continue;
      }
      if (mutation.seq !== last + 1) {
        answer.gap = last + 1;
        break;
      }
      context.stamps.beginUnit();
      const outcome = applyOne(context, deviceId, facilityIds, mutation, at);
      answer[outcome === 'rejected' ? 'rejected' : 'applied'] += 1;
      if (outcome === 'partial') answer.conflicts += 1;
      record.run(
        deviceId,
        mutation.seq,
        mutation.name,
        JSON.stringify(mutation.args),
        mutation.base_version ?? null,
        mutation.at,
        outcome,
        context.stamps.currentVersion(),
      );
      last = mutation.seq;
    }
    prepared(
      sqlite,
      `UPDATE sync_clients SET last_seq = ?, last_push_at = ? WHERE client_id = ?`,
    ).run(last, at, deviceId);
    answer.last_seq = last;
  })();
  context.stamps.beginUnit();
  return answer;
}

function applyOne(
  context: PushContext,
  deviceId: string,
  facilityIds: ReadonlySet<string>,
  mutation: PushedMutation,
  at: string,
): MutationOutcome {
  const { sqlite } = context;
  try {
    // Nested: better-sqlite3 makes it a savepoint, rolled back alone when it throws.
    const fieldConflicts = sqlite.transaction(() =>
      applyChanges({ sqlite, deviceId, facilityIds, at }, mutation.args.changes),
    )();
    if (fieldConflicts.length === 0) return 'applied';
    // The other fields went in; the clerk decides on these (the central's values come down).
    recordConflict(sqlite, deviceId, mutation, new Refusal(FIELD_CONFLICT, fieldConflicts), at);
    restamp(
      sqlite,
      mutation.args.changes.filter((c) =>
        fieldConflicts.some(
          (f) => f.table === c.t && JSON.stringify(f.key) === JSON.stringify(c.k),
        ),
      ),
    );
    return 'partial';
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error; // a temporary failure: the whole push answers 5xx and is retried
    recordConflict(sqlite, deviceId, mutation, refusal, at);
    restamp(sqlite, mutation.args.changes);
    return 'rejected';
  }
}

export const FIELD_CONFLICT = 'Changed on the central service since this workstation read it';
type MutationOutcome = 'applied' | 'partial' | 'rejected';

interface OrderState {
  status: string;
  picksheet_code: string;
}

/**
 * Applies every change in order, each judged by the central's stored row just before it is
 * written (an insert and an update of one row in one mutation are judged in turn); returns the
 * fields that conflicted (the rest of their rows applied).
 */
function applyChanges(pusher: Pusher, changes: RowChange[]): ConflictField[] {
  const { sqlite, deviceId } = pusher;
  const tables = changes.map((change) => {
    const table = REPLICATED_BY_NAME.get(change.t);
    if (!table || !table.pushed) throw new Refusal(`Table ${change.t} is written centrally only`);
    if (change.k.length !== table.key.length) throw new Refusal(`Bad key for ${change.t}`);
    return table;
  });
  // A device changes only its conflicts' resolutions (conflict-rules.ts).
  guardConflictChanges(sqlite, deviceId, changes);
  const onlyAppends = changes.every((c, i) => isAppendOrSendRecord(c, tables[i]!));
  // Each order's status as the mutation found it (a step of this mutation may finish it).
  const orders = new Map<string, OrderState | undefined>();
  const conflicts: ConflictField[] = [];
  changes.forEach((change, index) => {
    const table = tables[index]!;
    const stored = storedRow(sqlite, table, change.k);
    const plan = planChange(sqlite, table, change, stored);
    guardChange(pusher, table, stored, plan, changes);
    const after = plan.kind === 'insert' ? plan.row : plan.kind === 'update' ? plan.result : null;
    for (const row of [stored, after]) {
      const orderId = row && table.order ? evaluateOn(sqlite, table, table.order, row) : null;
      if (orderId) refuseFinished(sqlite, orders, orderId, onlyAppends, changes);
    }
    conflicts.push(...writeChange(sqlite, table, change, plan));
    if (plan.kind === 'update' && plan.settled) restamp(sqlite, [change]);
  });
  return conflicts;
}

/**
 * A shipped or cancelled order (on the central) refuses every change but appends and the
 * records of sending its documents.
 */
function refuseFinished(
  sqlite: SQLite.Database,
  orders: Map<string, OrderState | undefined>,
  orderId: string,
  onlyAppends: boolean,
  changes: RowChange[],
): void {
  if (!orders.has(orderId)) {
    orders.set(
      orderId,
      prepared(sqlite, `SELECT status, picksheet_code FROM orders WHERE id = ?`).get(orderId) as
        OrderState | undefined,
    );
  }
  const order = orders.get(orderId);
  if (!order || onlyAppends || !(FINAL_STATUSES as readonly string[]).includes(order.status)) {
    return;
  }
  const yours = changes.find((c) => c.t === 'orders' && c.k[0] === orderId)?.new?.status;
  throw new Refusal(
    `Order ${order.picksheet_code} was already ${order.status} on the central service`,
    [
      {
        table: 'orders',
        key: [orderId],
        field: 'status',
        yours: yours ?? null,
        central: order.status,
      },
    ],
  );
}

function storedRow(sqlite: SQLite.Database, table: ReplicatedTable, key: RowChange['k']) {
  return prepared(sqlite, `SELECT * FROM ${table.name} WHERE ${keyWhere(table)}`).get(
    ...key.map(bindable),
  ) as Row | undefined;
}

const same = (a: unknown, b: unknown) => bindable(a) === bindable(b);

/**
 * The pushed row with its key as the change names it: the key is what the central judges the
 * change by, so a row claiming another key is refused, and one without key columns gets them.
 */
function pushedRow(sqlite: SQLite.Database, table: ReplicatedTable, change: RowChange): Row {
  const columns = columnsOf(sqlite, table.name);
  const row: Row = {};
  for (const [column, value] of Object.entries(change.new ?? {})) {
    if (columns.includes(column)) row[column] = value;
  }
  table.key.forEach((column, i) => {
    if (column in row && !same(row[column], change.k[i])) {
      throw new Refusal(`Bad key for ${change.t}`);
    }
    row[column] = change.k[i];
  });
  return row;
}

/**
 * What a change would do to the stored row. A delete of a row the central does not have is
 * nothing; an insert over an existing key is nothing when it is that very row and refused
 * otherwise (not an upsert: decisions.md, Sync); an update is a three-way merge per column.
 */
function planChange(
  sqlite: SQLite.Database,
  table: ReplicatedTable,
  change: RowChange,
  stored: Row | undefined,
): PlannedChange {
  if (change.op === 'D') return stored ? { kind: 'delete' } : { kind: 'skip' };
  const incoming = pushedRow(sqlite, table, change);
  if (change.op === 'I') {
    // Nothing to write is a malformed change, not a temporary failure: refuse it, do not jam the queue.
    if (Object.keys(incoming).length === table.key.length)
      throw new Refusal(`Bad row for ${change.t}`);
    if (!stored) return { kind: 'insert', row: incoming };
    if (Object.keys(incoming).every((c) => same(stored[c], incoming[c]))) return { kind: 'skip' };
    throw new Refusal(`This ${describe(table)} already exists on the central service`);
  }
  if (!stored) throw new Refusal(`This ${describe(table)} was deleted on the central service`);
  const before = change.old ?? {};
  const sets: string[] = [];
  const held: string[] = [];
  for (const column of columnsOf(sqlite, table.name).filter((c) => c in incoming)) {
    if (same(before[column], incoming[column]) || same(stored[column], incoming[column])) continue;
    if (same(stored[column], before[column]) || table.laterWins?.includes(column)) {
      sets.push(column);
    } else {
      held.push(column);
    }
  }
  const kept = keepSettledOutcome(table, stored, before, incoming, sets);
  const result = { ...stored };
  for (const column of kept.sets) result[column] = incoming[column];
  const wanted = { ...result };
  for (const column of held) wanted[column] = incoming[column];
  return { kind: 'update', sets: kept.sets, held, result, wanted, settled: kept.settled };
}

function writeChange(
  sqlite: SQLite.Database,
  table: ReplicatedTable,
  change: RowChange,
  plan: PlannedChange,
): ConflictField[] {
  const key = change.k.map(bindable);
  if (plan.kind === 'skip') return [];
  if (plan.kind === 'delete') {
    prepared(sqlite, `DELETE FROM ${table.name} WHERE ${keyWhere(table)}`).run(...key);
    return [];
  }
  if (plan.kind === 'insert') {
    const names = columnsOf(sqlite, table.name).filter((c) => c in plan.row);
    prepared(
      sqlite,
      `INSERT INTO ${table.name} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    ).run(...names.map((c) => bindable(plan.row[c])));
    return [];
  }
  if (plan.sets.length > 0) {
    prepared(
      sqlite,
      `UPDATE ${table.name} SET ${plan.sets.map((c) => `${c} = ?`).join(', ')} WHERE ${keyWhere(table)}`,
    ).run(...plan.sets.map((c) => bindable(plan.result[c])), ...key);
  }
  const incoming = change.new ?? {};
  return plan.held.map((column) => ({
    table: table.name,
    key: change.k,
    field: column,
    yours: incoming[column] ?? null,
    central: plan.result[column] ?? null,
  }));
}

/** Constraint failures are permanent (the same rows fail the same way); anything else is not. */
function refusalOf(error: unknown): Refusal | null {
  if (error instanceof Refusal) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_CONSTRAINT')) return null;
  const message = (error as Error).message;
  if (message.includes('orders.facility_id, orders.picksheet_code')) {
    return new Refusal(
      'The picksheet code is already used at this facility on the central service',
    );
  }
  if (/cartons\.sscc|pallets\.sscc/.test(message)) {
    return new Refusal('The SSCC is already used on the central service');
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
    return new Refusal('It refers to a record the central service does not have');
  }
  return new Refusal(`The central service refused it: ${message}`);
}

function recordConflict(
  sqlite: SQLite.Database,
  deviceId: string,
  mutation: PushedMutation,
  refusal: Refusal,
  at: string,
): void {
  const changes = mutation.args.changes;
  // What was refused and whom it concerns, from the stored rows (conflict-rules.ts).
  const tie = refusalTie(sqlite, deviceId, changes, refusal.fields);
  prepared(
    sqlite,
    `INSERT INTO sync_conflicts (id, client_id, seq, mutation, order_id, facility_id, brand_id,
         reason, fields_json, changes_json, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
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
  );
}

/**
 * The device applied the refused mutation locally. Giving every row it touched a new version
 * (a tombstone where the central has no such row) makes the device's next pull overwrite them.
 */
function restamp(sqlite: SQLite.Database, changes: RowChange[]): void {
  const upsert = prepared(
    sqlite,
    `INSERT INTO sync_row_versions (tbl, row_key, version, deleted, src_rowid) VALUES (?, ?, sync_version(), 1, NULL)
     ON CONFLICT (tbl, row_key) DO UPDATE SET version = excluded.version`,
  );
  for (const change of changes) {
    const table = REPLICATED_BY_NAME.get(change.t);
    if (!table || change.k.length !== table.key.length) continue;
    const rowKey = JSON.stringify(change.k);
    upsert.run(table.name, rowKey);
    const exists = prepared(
      sqlite,
      `SELECT rowid AS r FROM ${table.name} WHERE ${keyWhere(table)}`,
    ).get(...change.k.map(bindable)) as { r: number } | undefined;
    prepared(
      sqlite,
      `UPDATE sync_row_versions SET deleted = ?, src_rowid = ? WHERE tbl = ? AND row_key = ?`,
    ).run(exists ? 0 : 1, exists?.r ?? null, table.name, rowKey);
  }
}
