import { FINAL_STATUSES } from '../../shared/orders';
import type { ConflictField } from '../../shared/sync';
import type { ApplySql } from './apply-sql';
import type { RowChange } from './protocol';
import { Refusal } from './refusal';
import { bindable, keyWhere } from './rows';
import { REPLICATED_BY_NAME, type ReplicatedTable } from './synced-tables';

/**
 * The rules of a conflict's life, judged from this replica's stored rows (docs/sync.md, section 9):
 * what a refusal keeps, who may answer "apply mine" and what it may write. Both a clerk's resolve
 * (conflicts.ts) and a pushed resolution (central-apply.ts) go through them, so the central
 * judges a resolution made on a workstation the way it judges its own.
 */

/** The columns a resolution writes; a device changing any other column of a conflict is refused. */
const RESOLUTION_COLUMNS = new Set([
  'status',
  'resolution',
  'resolved_at',
  'resolved_by',
  'updated_at',
]);

/**
 * Columns "apply mine" never writes: keys and the order's place (a move is a command), its status
 * (statuses change through the fulfilment commands only), and bookkeeping.
 */
const NEVER_APPLIED = new Set([
  'id',
  'order_id',
  'carton_id',
  'pallet_id',
  'brand_id',
  'retailer_id',
  'facility_id',
  'organization_id',
  'status',
  'created_at',
]);

export const APPLY_MINE_NEEDS_ADMIN =
  'Apply mine needs an admin grant for the order’s brand at its facility';
export const SHIPPED_WINS = (code: string, status: string) =>
  `Order ${code} is ${status} on the central service: its values stay (a ${status.toLowerCase()} order cannot change)`;
export const ORDER_GONE =
  'The order is not on the central service: create it again with a new picksheet code, or keep the central’s';
export const ALREADY_RESOLVED = 'Conflict already resolved';

/** A conflict with what its rules need from the stored rows. */
export interface StoredConflict {
  id: string;
  status: string;
  client_id: string;
  order_id: string | null;
  facility_id: string | null;
  brand_id: string | null;
  fields_json: string;
  changes_json: string;
  order_status: string | null;
  order_facility_id: string | null;
  picksheet_code: string | null;
}

export function storedConflict(sql: ApplySql, id: string): Promise<StoredConflict | undefined> {
  return sql.get<StoredConflict>(
    `SELECT c.id, c.status, c.client_id, c.order_id, c.facility_id, coalesce(c.brand_id, o.brand_id) AS brand_id,
       c.fields_json, c.changes_json, o.status AS order_status, o.facility_id AS order_facility_id,
       o.picksheet_code
     FROM sync_conflicts c LEFT JOIN orders o ON o.id = c.order_id WHERE c.id = ?`,
    [id],
  );
}

export type Verdict =
  | { ok: true }
  | { ok: false; kind: 'forbidden' | 'conflict'; message: string; fields?: ConflictField[] };

const isFinal = (status: string | null) =>
  status !== null && (FINAL_STATUSES as readonly string[]).includes(status);

/** Whether "apply mine" may be offered for a conflict at all (the UI's Apply mine button). */
export function applyMineOffered(conflict: Pick<StoredConflict, 'order_status' | 'status'>) {
  return (
    conflict.status === 'open' && conflict.order_status !== null && !isFinal(conflict.order_status)
  );
}

/**
 * Who may apply mine, and when: an admin grant for the conflict's brand AND facility, on an open
 * conflict whose order still exists and is not Shipped or Cancelled ("Shipped wins").
 */
export async function judgeApplyMine(
  sql: ApplySql,
  conflict: StoredConflict,
  userId: string,
): Promise<Verdict> {
  if (conflict.status !== 'open') return { ok: false, kind: 'conflict', message: ALREADY_RESOLVED };
  const admin =
    conflict.brand_id !== null &&
    conflict.facility_id !== null &&
    conflict.order_facility_id === conflict.facility_id &&
    (await sql.get(
      `SELECT 1 AS x FROM user_admin WHERE user_id = ? AND brand_id = ? AND facility_id = ?`,
      [userId, conflict.brand_id, conflict.facility_id],
    )) !== undefined;
  // A refused create (its order exists nowhere) says what to do instead, to whoever sees it.
  if (!admin && conflict.order_status !== null) {
    return { ok: false, kind: 'forbidden', message: APPLY_MINE_NEEDS_ADMIN };
  }
  if (conflict.order_status === null) return { ok: false, kind: 'conflict', message: ORDER_GONE };
  if (isFinal(conflict.order_status)) {
    return {
      ok: false,
      kind: 'conflict',
      message: SHIPPED_WINS(conflict.picksheet_code ?? '', conflict.order_status),
      fields: [
        {
          table: 'orders',
          key: [conflict.order_id],
          field: 'status',
          yours: null,
          central: conflict.order_status,
        },
      ],
    };
  }
  return { ok: true };
}

/** The order a stored row belongs to (the table's own order SQL), or null when it has none. */
async function storedOrderOf(sql: ApplySql, table: ReplicatedTable, key: unknown[]) {
  if (!table.order) return null;
  const row = await sql.get<{ order_id: string | null }>(
    `SELECT ${table.order} AS order_id FROM ${table.name} R WHERE ${keyWhere(table)}`,
    key.map(bindable),
  );
  return row?.order_id ?? null;
}

const canApply = (table: ReplicatedTable, column: string) =>
  !table.key.includes(column) && !NEVER_APPLIED.has(column) && !table.appendOnly && table.pushed;

/** One value "apply mine" writes. */
export interface AppliedValue {
  table: ReplicatedTable;
  key: unknown[];
  column: string;
  value: unknown;
}

/**
 * The conflict's fields "apply mine" may write: existing rows of the conflict's order, columns of
 * the allow-list only. Whatever else a conflict names (it came from a device) is left alone.
 */
export async function applicableValues(
  sql: ApplySql,
  conflict: StoredConflict,
  fields: ConflictField[],
): Promise<AppliedValue[]> {
  const values: AppliedValue[] = [];
  for (const field of fields) {
    const table = REPLICATED_BY_NAME.get(field.table);
    if (!table || !field.key || field.key.length !== table.key.length) continue;
    if (!canApply(table, field.field) || !(await sql.columnsOf(table.name)).includes(field.field)) {
      continue;
    }
    if ((await storedOrderOf(sql, table, field.key)) !== conflict.order_id) continue;
    values.push({ table, key: field.key, column: field.field, value: field.yours });
  }
  return values;
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/** The device's facilities, as the central stores them. */
async function deviceServes(sql: ApplySql, deviceId: string, facilityId: unknown) {
  return (
    typeof facilityId === 'string' &&
    (await sql.get(`SELECT 1 AS x FROM device_facilities WHERE device_id = ? AND facility_id = ?`, [
      deviceId,
      facilityId,
    ])) !== undefined
  );
}

/**
 * A push that touches conflicts (central): only a resolution of a stored conflict of the device's
 * facilities (or of its own conflict tied to no facility), and "apply mine" only as a clerk could do it here: by an admin of the conflict's
 * brand and facility, on an order not finished, writing allowed columns of that order's rows.
 */
export async function guardConflictChanges(
  sql: ApplySql,
  deviceId: string,
  changes: RowChange[],
): Promise<void> {
  for (const change of changes) {
    if (change.t !== 'sync_conflicts') continue;
    if (change.op !== 'U') throw new Refusal('Conflicts are recorded by the central service only');
    const conflict = await storedConflict(sql, String(change.k[0]));
    // A refusal tied to none of the device's facilities (its order moved away) is the device's
    // own to dismiss, as requireInScope lets it write that row; "apply mine" stays refused below.
    const own = conflict?.facility_id === null && conflict.client_id === deviceId;
    if (!conflict || (!own && !(await deviceServes(sql, deviceId, conflict.facility_id)))) {
      throw new Refusal('The conflict belongs to a facility this workstation does not serve');
    }
    const before = change.old ?? {};
    const after = change.new ?? {};
    for (const column of Object.keys(after)) {
      if (!RESOLUTION_COLUMNS.has(column) && !same(before[column], after[column])) {
        throw new Refusal('Only a conflict’s resolution is sent by a workstation');
      }
    }
    if (after.resolution !== 'apply_mine' || same(before.resolution, after.resolution)) continue;
    const verdict = await judgeApplyMine(sql, conflict, String(after.resolved_by ?? ''));
    if (!verdict.ok) throw new Refusal(verdict.message, verdict.fields);
    await guardAppliedRows(sql, conflict, changes);
  }
}

/**
 * The other rows of an "apply mine" mutation: updates of the conflict's order in allowed columns,
 * and appends (log rows) of that order.
 */
async function guardAppliedRows(sql: ApplySql, conflict: StoredConflict, changes: RowChange[]) {
  for (const change of changes) {
    if (change.t === 'sync_conflicts') continue;
    const table = REPLICATED_BY_NAME.get(change.t);
    // The order update command's log row.
    if (table?.appendOnly && change.op === 'I' && change.new?.order_id === conflict.order_id) {
      continue;
    }
    const refuse = () => {
      throw new Refusal('Apply mine changes only the fields of the conflict’s order');
    };
    if (
      !table ||
      change.op !== 'U' ||
      (await storedOrderOf(sql, table, change.k)) !== conflict.order_id
    )
      refuse();
    const before = change.old ?? {};
    for (const [column, value] of Object.entries(change.new ?? {})) {
      if (same(before[column], value) || column === 'updated_at') continue;
      if (!canApply(table!, column)) refuse();
    }
  }
}

/**
 * What a refused mutation keeps, and whom it is tied to (recordConflict): the order by its id even
 * when the central has no such order (a refused create), its facility and brand only where the
 * device serves that facility and the brand works there, and the refused values when the refusal
 * named none (every refused insert or update carries what was refused).
 */
export async function refusalTie(
  sql: ApplySql,
  deviceId: string,
  changes: RowChange[],
  fields: ConflictField[],
): Promise<{
  orderId: string | null;
  facilityId: string | null;
  brandId: string | null;
  fields: ConflictField[];
}> {
  const orderChange =
    changes.find((c) => c.t === 'orders') ??
    changes.find((c) => typeof (c.new ?? c.old)?.order_id === 'string');
  const orderId = orderChange
    ? orderChange.t === 'orders'
      ? String(orderChange.k[0])
      : String((orderChange.new ?? orderChange.old)!.order_id)
    : null;
  const stored = orderId
    ? await sql.get<{ facility_id: string; brand_id: string }>(
        `SELECT facility_id, brand_id FROM orders WHERE id = ?`,
        [orderId],
      )
    : undefined;
  const claimed = orderChange?.t === 'orders' ? (orderChange.new ?? {}) : {};
  const facilityId = stored ? stored.facility_id : (claimed.facility_id ?? null);
  const served = (await deviceServes(sql, deviceId, facilityId)) ? (facilityId as string) : null;
  const brandId = stored ? stored.brand_id : (claimed.brand_id ?? null);
  const brandThere =
    served !== null &&
    typeof brandId === 'string' &&
    (await sql.get(`SELECT 1 AS x FROM brand_facilities WHERE brand_id = ? AND facility_id = ?`, [
      brandId,
      served,
    ])) !== undefined;
  return {
    orderId: served !== null ? orderId : null,
    facilityId: served,
    // The stored order's brand is the central's own fact: kept also where the device no longer
    // serves the order, so only that brand's users see the central's values in the conflict.
    brandId: stored ? stored.brand_id : brandThere ? (brandId as string) : null,
    fields: fields.length > 0 ? fields : await refusedValues(sql, changes),
  };
}

/**
 * The values a refused mutation wanted: each inserted row's columns (nothing on the central side),
 * each updated column with the central's value. Log and activity rows only when nothing else was
 * refused, so a refused create reads as the order and its lines.
 */
async function refusedValues(sql: ApplySql, changes: RowChange[]): Promise<ConflictField[]> {
  const rows = changes.filter((c) => c.op !== 'D' && REPLICATED_BY_NAME.has(c.t));
  const main = rows.filter((c) => !REPLICATED_BY_NAME.get(c.t)!.appendOnly);
  const fields: ConflictField[] = [];
  for (const change of main.length > 0 ? main : rows) {
    const table = REPLICATED_BY_NAME.get(change.t)!;
    const current =
      change.op === 'U' && change.k.length === table.key.length
        ? await sql.get<Record<string, unknown>>(
            `SELECT * FROM ${table.name} WHERE ${keyWhere(table)}`,
            change.k.map(bindable),
          )
        : undefined;
    const before = change.old ?? {};
    for (const [column, value] of Object.entries(change.new ?? {})) {
      if (table.key.includes(column) || value === null || value === undefined) continue;
      if (change.op === 'U' && same(before[column], value)) continue;
      fields.push({
        table: table.name,
        key: change.k,
        field: column,
        yours: value,
        central: current?.[column] ?? null,
      });
    }
  }
  return fields;
}
