import { FINAL_STATUSES } from '../../shared/orders';
import type { ConflictField } from '../../shared/sync';
import type { ApplySql } from './apply-sql';
import { guardConflictChanges } from './conflict-rules';
import type { RowChange } from './protocol';
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

interface OrderState {
  status: string;
  picksheet_code: string;
}

/**
 * Applies every change of one pushed mutation in order, each judged by the central's stored row
 * just before it is written (an insert and an update of one row in one mutation are judged in
 * turn); returns the fields that conflicted (the rest of their rows applied). Throws a Refusal.
 */
export async function applyChanges(pusher: Pusher, changes: RowChange[]): Promise<ConflictField[]> {
  const { sql, deviceId } = pusher;
  const tables = changes.map((change) => {
    const table = REPLICATED_BY_NAME.get(change.t);
    if (!table || !table.pushed) throw new Refusal(`Table ${change.t} is written centrally only`);
    if (change.k.length !== table.key.length) throw new Refusal(`Bad key for ${change.t}`);
    return table;
  });
  // A device changes only its conflicts' resolutions (conflict-rules.ts).
  await guardConflictChanges(sql, deviceId, changes);
  const onlyAppends = changes.every((c, i) => isAppendOrSendRecord(c, tables[i]!));
  // Each order's status as the mutation found it (a step of this mutation may finish it).
  const orders = new Map<string, OrderState | undefined>();
  const conflicts: ConflictField[] = [];
  for (const [index, change] of changes.entries()) {
    const table = tables[index]!;
    const stored = await storedRow(sql, table, change.k);
    // An order's own stored row, just read and locked, is what refuseFinished would read again.
    if (table.name === 'orders' && stored && !orders.has(String(stored.id))) {
      const { status, picksheet_code } = stored as unknown as OrderState;
      orders.set(String(stored.id), { status, picksheet_code });
    }
    const plan = await planChange(sql, table, change, stored);
    await guardChange(pusher, table, stored, plan, changes);
    const after = plan.kind === 'insert' ? plan.row : plan.kind === 'update' ? plan.result : null;
    for (const row of [stored, after]) {
      const orderId = row && table.order ? await evaluateOn(sql, table, table.order, row) : null;
      if (orderId) await refuseFinished(sql, orders, orderId, onlyAppends, changes);
    }
    conflicts.push(...(await writeChange(sql, table, change, plan)));
    if (plan.kind === 'update' && plan.settled) await sql.restamp(table, change.k.map(bindable));
  }
  return conflicts;
}

/**
 * A shipped or cancelled order (on the central) refuses every change but appends and the
 * records of sending its documents. The order is locked (PostgreSQL) so a ship committing
 * meanwhile is waited for and seen.
 */
async function refuseFinished(
  sql: ApplySql,
  orders: Map<string, OrderState | undefined>,
  orderId: string,
  onlyAppends: boolean,
  changes: RowChange[],
): Promise<void> {
  if (!orders.has(orderId)) {
    orders.set(
      orderId,
      await sql.get<OrderState>(
        `SELECT status, picksheet_code FROM orders WHERE id = ?${sql.forUpdate}`,
        [orderId],
      ),
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

/**
 * The row a change is judged by. Locked on PostgreSQL: under READ COMMITTED another transaction
 * could otherwise change it between this read and the write, and the merge and the guards would
 * have judged a row that is no longer there (a lost update, an edit of a just-shipped order).
 */
function storedRow(sql: ApplySql, table: ReplicatedTable, key: RowChange['k']) {
  return sql.get<Row>(
    `SELECT * FROM ${table.name} WHERE ${keyWhere(table)}${sql.forUpdate}`,
    key.map(bindable),
  );
}

const same = (a: unknown, b: unknown) => bindable(a) === bindable(b);

/**
 * The pushed row with its key as the change names it: the key is what the central judges the
 * change by, so a row claiming another key is refused, and one without key columns gets them.
 */
async function pushedRow(sql: ApplySql, table: ReplicatedTable, change: RowChange): Promise<Row> {
  const columns = await sql.columnsOf(table.name);
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
async function planChange(
  sql: ApplySql,
  table: ReplicatedTable,
  change: RowChange,
  stored: Row | undefined,
): Promise<PlannedChange> {
  if (change.op === 'D') return stored ? { kind: 'delete' } : { kind: 'skip' };
  const incoming = await pushedRow(sql, table, change);
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
  for (const column of (await sql.columnsOf(table.name)).filter((c) => c in incoming)) {
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

async function writeChange(
  sql: ApplySql,
  table: ReplicatedTable,
  change: RowChange,
  plan: PlannedChange,
): Promise<ConflictField[]> {
  const key = change.k.map(bindable);
  if (plan.kind === 'skip') return [];
  if (plan.kind === 'delete') {
    await sql.run(`DELETE FROM ${table.name} WHERE ${keyWhere(table)}`, key);
    return [];
  }
  if (plan.kind === 'insert') {
    const names = (await sql.columnsOf(table.name)).filter((c) => c in plan.row);
    await sql.run(
      `INSERT INTO ${table.name} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      names.map((c) => bindable(plan.row[c])),
    );
    return [];
  }
  if (plan.sets.length > 0) {
    await sql.run(
      `UPDATE ${table.name} SET ${plan.sets.map((c) => `${c} = ?`).join(', ')} WHERE ${keyWhere(table)}`,
      [...plan.sets.map((c) => bindable(plan.result[c])), ...key],
    );
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
