import { MOVABLE_STATUSES } from '../../shared/orders';
import type { ApplySql } from './apply-sql';
import type { RowChange } from './protocol';
import { Refusal } from './refusal';
import { bindable } from './rows';
import { CENTRAL_ID, UNENVELOPED_X12_CONTENT_TYPE } from './role';
import type { ReplicatedTable } from './synced-tables';

export type Row = Record<string, unknown>;

/** Who pushes: a device and the facilities the central says it serves (never what it claims). */
export interface Pusher {
  sql: ApplySql;
  deviceId: string;
  facilityIds: ReadonlySet<string>;
  /** When the central applies the push (a document it sends is due from then). */
  at: string;
}

/** What a change would do to the central's row, worked out before anything is written. */
export type PlannedChange =
  | { kind: 'skip' }
  | { kind: 'delete' }
  | { kind: 'insert'; row: Row }
  /**
   * `result` is the row after the merge; `wanted` the row had the held columns applied too;
   * `settled` when a stale outcome was left out (the row is re-stamped so the device gets it back).
   */
  | { kind: 'update'; sets: string[]; held: string[]; result: Row; wanted: Row; settled?: boolean };

export const OUT_OF_SCOPE = 'The row belongs to a facility this workstation does not serve';
export const ORDER_OUT_OF_SCOPE = 'The order belongs to a facility this workstation does not serve';

/**
 * `expression` (a scope SQL of tables.ts, written for `R`) evaluated against `row`, stored or
 * would-be: the very SQL that stamps and pull scope the row with, so push and pull cannot disagree.
 */
export async function evaluateOn(
  sql: ApplySql,
  table: ReplicatedTable,
  expression: string,
  row: Row,
): Promise<string | null> {
  // Most scopes are a column of the row itself (or none): read it here, without a round trip.
  if (expression === 'NULL') return null;
  const own = /^R\.(\w+)$/.exec(expression)?.[1];
  if (own !== undefined && (await sql.columnsOf(table.name)).includes(own)) {
    const value = bindable(row[own]);
    return value === null ? null : String(value);
  }
  const columns = await sql.columnsOf(table.name);
  const source = sql.rowOf(
    table.name,
    columns,
    columns.map((c) => bindable(row[c])),
  );
  const found = await sql.get<{ v: unknown }>(
    `SELECT ${expression} AS v FROM ${source.from} R`,
    source.params,
  );
  return found?.v === null || found?.v === undefined ? null : String(found.v);
}

/**
 * Judges one change by the central's stored row and the row it would leave: both must belong to
 * one of the device's facilities, append-only rows are only ever added, a move between
 * facilities passes the move's rules, and deliveries cannot be forged. Throws a Refusal.
 */
export async function guardChange(
  pusher: Pusher,
  table: ReplicatedTable,
  stored: Row | undefined,
  plan: PlannedChange,
  changes: RowChange[],
): Promise<void> {
  if (stored) await requireInScope(pusher, table, stored);
  if (plan.kind === 'skip') return;
  if (plan.kind === 'delete') {
    refuseDelete(table, stored!, changes);
    return;
  }
  if (plan.kind === 'update') {
    if (table.appendOnly) throw new Refusal(`A ${describe(table)} is never changed once recorded`);
    const written = [...plan.sets, ...plan.held];
    limitColumns(pusher, table, stored!, written);
    // A held column is offered to the clerk as "apply mine": it must be one the device may write.
    for (const row of [plan.result, plan.wanted]) await requireInScope(pusher, table, row);
    if (table.name === 'orders' && written.includes('facility_id')) {
      await guardMoveDestination(pusher.sql, plan.wanted);
    }
    return;
  }
  if (table.name === 'sync_conflicts') {
    throw new Refusal('Conflicts are recorded by the central service only');
  }
  await requireInScope(pusher, table, plan.row);
  if (table.name === 'advice_snapshots') await guardSnapshot(pusher.sql, plan.row);
  if (table.name === 'advice_deliveries') await guardNewDelivery(pusher, plan.row);
  if (table.name === 'order_documents') await guardNewOrderDocument(pusher, plan.row);
  if (table.name === 'advice_documents') await guardNewAdviceDocument(pusher, plan.row);
  if (table.name === 'transactions') await guardLogRow(pusher, plan.row);
}

export function describe(table: ReplicatedTable): string {
  return table.name.replace(/_/g, ' ').replace(/s$/, '');
}

/**
 * A row with no facility (brand-wide) is not a device's to write; the one exception is a conflict
 * the device itself caused (a refusal of a row that had no facility either).
 */
async function requireInScope(pusher: Pusher, table: ReplicatedTable, row: Row): Promise<void> {
  const facility = await evaluateOn(pusher.sql, table, table.facility, row);
  if (facility !== null && pusher.facilityIds.has(facility)) return;
  if (facility === null && table.name === 'sync_conflicts' && row.client_id === pusher.deviceId) {
    return;
  }
  throw new Refusal(table.order ? ORDER_OUT_OF_SCOPE : OUT_OF_SCOPE);
}

/** The one delete of an append-only row a command makes: a carton's Pack action, with its carton. */
const isPackActionOfDeletedCarton = (row: Row, changes: RowChange[]) =>
  row.kind === 'ACTION' &&
  row.action_type === 'Carton Workflow' &&
  row.metric === 'Pack' &&
  changes.some((c) => c.t === 'cartons' && c.op === 'D' && c.k[0] === row.carton_id);

function refuseDelete(table: ReplicatedTable, stored: Row, changes: RowChange[]): void {
  if (table.name === 'order_activity' && isPackActionOfDeletedCarton(stored, changes)) return;
  if (table.appendOnly) throw new Refusal(`A ${describe(table)} is never deleted once recorded`);
  if (table.name === 'orders') throw new Refusal('An order is cancelled, never deleted');
  if (
    table.name === 'advice_deliveries' ||
    table.name === 'sync_conflicts' ||
    table.name === 'order_documents'
  ) {
    throw new Refusal(`A ${describe(table)} is never deleted by a workstation`);
  }
}

/**
 * Updates a device may make beyond its own rows' fields: a delivery's or a document's outcome
 * (its sender only) and a conflict's resolution, nothing else of them; an order's facility only as a move.
 */
function limitColumns(pusher: Pusher, table: ReplicatedTable, stored: Row, written: string[]) {
  if (table.name === 'advice_deliveries' && stored.sender_id !== pusher.deviceId) {
    throw new Refusal('Only the replica that sends a delivery records its outcome');
  }
  if (table.name === 'order_documents' && stored.sender_id !== pusher.deviceId) {
    throw new Refusal('Only the replica that sends a document records its outcome');
  }
  if (
    table.name === 'advice_deliveries' ||
    table.name === 'sync_conflicts' ||
    table.name === 'order_documents'
  ) {
    const other = written.find((c) => !table.laterWins?.includes(c));
    if (other) throw new Refusal(`A workstation cannot change ${other} of a ${describe(table)}`);
  }
  if (table.name === 'orders' && written.includes('facility_id')) guardMove(stored, written);
}

/**
 * An order's facility changes only through the move command, so the central runs the move's
 * rules again on its own rows (change-facility.ts): not yet packed, the brand works at the
 * destination and the retailer is connected to the brand there; both facilities are the
 * device's (the scope checks), and a taken picksheet code fails on the unique index.
 */
function guardMove(stored: Row, written: string[]): void {
  const refuse = (why: string) => {
    throw new Refusal(`The order cannot be moved: ${why}`);
  };
  if (written.some((c) => c !== 'facility_id' && c !== 'updated_at')) {
    refuse('a move changes nothing else of the order');
  }
  if (!(MOVABLE_STATUSES as readonly unknown[]).includes(stored.status)) {
    refuse(`only orders not yet packed can move; it is ${String(stored.status)}`);
  }
}

/** The destination of a move, checked on the row the merge leaves. */
async function guardMoveDestination(sql: ApplySql, result: Row): Promise<void> {
  const facility = String(result.facility_id);
  if (!(await brandWorksAt(sql, result.brand_id, facility))) {
    throw new Refusal('The order cannot be moved: its brand does not work at that facility');
  }
  const connected = await sql.get(
    `SELECT 1 AS x FROM connections c JOIN facilities f ON f.organization_id = c.organization_id
      WHERE f.id = ? AND c.brand_id = ? AND c.retailer_id = ?`,
    [facility, bindable(result.brand_id), bindable(result.retailer_id)],
  );
  if (!connected) {
    throw new Refusal(
      'The order cannot be moved: its retailer is not connected to its brand at that facility',
    );
  }
}

const brandWorksAt = async (sql: ApplySql, brandId: unknown, facilityId: unknown) =>
  (await sql.get(`SELECT 1 AS x FROM brand_facilities WHERE brand_id = ? AND facility_id = ?`, [
    bindable(brandId),
    bindable(facilityId),
  ])) !== undefined;

/** A snapshot names one of the device's facilities (checked with the scope) and a brand working there. */
async function guardSnapshot(sql: ApplySql, row: Row): Promise<void> {
  if (!(await brandWorksAt(sql, row.brand_id, row.facility_id))) {
    throw new Refusal("The snapshot's brand does not work at its facility");
  }
}

/**
 * A delivery is written by its sender only. One queued for the central loses whatever document
 * came with it (the central builds its own). Its connection must be one the snapshot's brand
 * has in the facility's organisation, and the organisation, retailer and kind are the
 * connection's, whatever the payload said.
 */
async function guardNewDelivery(pusher: Pusher, row: Row): Promise<void> {
  // Documents live in advice_documents since migration 0016; the old column stays empty.
  row.document = null;
  if (row.sender_id === CENTRAL_ID) {
    Object.assign(row, {
      status: 'PENDING',
      document: null,
      content_type: null,
      file_name: null,
      interchange_control_number: null,
      next_attempt_at: null,
    });
  } else if (row.sender_id !== pusher.deviceId) {
    throw new Refusal('A delivery is recorded by the replica that sends it');
  }
  if (row.connection_id === null || row.connection_id === undefined) {
    // The record of an advice that reached no connection: a failure that sends nothing.
    Object.assign(row, {
      connection_id: null,
      organization_id: null,
      retailer_id: null,
      kind: null,
      status: 'FAILURE',
      document: null,
      next_attempt_at: null,
    });
    return;
  }
  const connection = await pusher.sql.get<Row>(
    `SELECT c.organization_id, c.retailer_id, c.kind FROM connections c
       JOIN advice_snapshots s ON s.brand_id = c.brand_id
       JOIN facilities f ON f.id = s.facility_id AND f.organization_id = c.organization_id
      WHERE c.id = ? AND s.id = ?`,
    [bindable(row.connection_id), bindable(row.snapshot_id)],
  );
  if (!connection) {
    throw new Refusal(
      "The delivery's connection is not one of the snapshot's brand in the facility's organisation",
    );
  }
  Object.assign(row, connection);
}

/**
 * A delivery's document is recorded by the replica that sends the delivery (the central builds
 * its own for the deliveries it sends), for a delivery that goes to a connection.
 */
async function guardNewAdviceDocument(pusher: Pusher, row: Row): Promise<void> {
  const delivery = await pusher.sql.get<{ sender_id: string | null; connection_id: string | null }>(
    `SELECT sender_id, connection_id FROM advice_deliveries WHERE id = ?`,
    [bindable(row.delivery_id)],
  );
  if (!delivery || delivery.sender_id !== pusher.deviceId || delivery.connection_id === null) {
    throw new Refusal('A delivery document is recorded by the replica that sends the delivery');
  }
}

/** A log row naming an order names one the device serves (its own facility is checked with the scope). */
async function guardLogRow(pusher: Pusher, row: Row): Promise<void> {
  if (typeof row.order_id !== 'string') return;
  const order = await pusher.sql.get<{ facility_id: string }>(
    `SELECT facility_id FROM orders WHERE id = ?`,
    [row.order_id],
  );
  if (order && !pusher.facilityIds.has(order.facility_id)) throw new Refusal(ORDER_OUT_OF_SCOPE);
}

/** Outbound documents a workstation makes with its orders' steps (997s answer inbound: central). */
const DEVICE_DOCUMENT_TYPES = new Set(['855', '856', '810', 'SHIPMENT_CONFIRMATION', 'TRACKING']);
const X12_TYPES = new Set(['855', '856', '810']);

/**
 * A document is written by its sender only, for a connection of its order's brand and retailer
 * in the order facility's organisation, never of a cancelled order; brand, facility, organisation
 * and retailer are the stored order's and connection's, whatever the payload said. One queued for the central comes as its
 * transaction sets (or JSON) and starts afresh there: queued, due now, no control numbers, no
 * outcome (the central envelopes and sends it, edi/envelope.ts).
 */
async function guardNewOrderDocument(pusher: Pusher, row: Row): Promise<void> {
  const type = String(row.type);
  if (row.direction !== 'out' || !DEVICE_DOCUMENT_TYPES.has(type)) {
    throw new Refusal('A workstation records only the outbound documents of its orders');
  }
  const stored = await pusher.sql.get<Row>(
    `SELECT c.organization_id, c.retailer_id, o.brand_id, o.facility_id, o.status AS order_status,
            o.picksheet_code FROM connections c
       JOIN orders o ON o.brand_id = c.brand_id AND o.retailer_id = c.retailer_id
       JOIN facilities f ON f.id = o.facility_id AND f.organization_id = c.organization_id
      WHERE c.id = ? AND o.id = ?`,
    [bindable(row.connection_id), bindable(row.order_id)],
  );
  if (!stored) {
    throw new Refusal(
      "The document's connection is not one of its order's brand and retailer in the facility's organisation",
    );
  }
  const { order_status: orderStatus, picksheet_code: code, ...scope } = stored;
  // A cancelled order wins: nothing more is sent about it (a shipped one still gets its 810).
  if (orderStatus === 'Cancelled') {
    throw new Refusal(`Order ${String(code)} was already Cancelled on the central service`);
  }
  Object.assign(row, scope, { interchange_id: null, acknowledged_at: null });
  if (row.sender_id === CENTRAL_ID) {
    // A step whose document could not be built records the failure: nothing to send.
    const built = !(
      row.status === 'failed' &&
      (row.document === null || row.document === undefined)
    );
    const contentType = X12_TYPES.has(type) ? UNENVELOPED_X12_CONTENT_TYPE : 'application/json';
    if (built && row.content_type !== contentType) {
      throw new Refusal(`A ${type} the central service sends comes as ${contentType}`);
    }
    Object.assign(row, {
      status: built ? 'queued' : 'failed',
      error: built ? null : (row.error ?? null),
      attempts: 0,
      next_attempt_at: built ? pusher.at : null,
      sent_at: null,
      interchange_control_number: null,
      group_control_number: null,
      transaction_control_number: null,
      file_name: X12_TYPES.has(type) ? null : (row.file_name ?? null),
    });
  } else if (row.sender_id !== pusher.deviceId) {
    throw new Refusal('A document is recorded by the replica that sends it');
  } else if (!['queued', 'sent', 'failed'].includes(String(row.status))) {
    throw new Refusal('A workstation records only whether it sent a document');
  }
}

/** The order columns a document's send sets (edi/send.ts). */
const SENT_COLUMNS = new Set(['asn_sent_at', 'po_acknowledgment_sent_at', 'invoice_sent_at']);

/**
 * Changes a shipped or cancelled order still takes: appends, a document of it (an 810 after the
 * ship) and what its sender records of sending it, the order's `*_sent_at` included.
 */
export function isAppendOrSendRecord(change: RowChange, table: ReplicatedTable): boolean {
  if (change.op === 'I') return table.appendOnly === true || table.name === 'order_documents';
  if (change.op !== 'U') return false;
  // Only its sender's outcome columns (limitColumns).
  if (table.name === 'order_documents') return true;
  if (table.name !== 'orders') return false;
  const before = change.old ?? {};
  const changed = Object.entries(change.new ?? {}).filter(
    ([column, value]) => bindable(before[column]) !== bindable(value),
  );
  return changed.length > 0 && changed.every(([column]) => SENT_COLUMNS.has(column));
}

/** queued and failed < sent < answered by a 997 (accepted, accepted_with_errors, rejected). */
const statusRank = (status: unknown) =>
  status === 'queued' || status === 'failed' ? 0 : status === 'sent' ? 1 : 2;

/** What a push may not take back: the status, and the error and next try of a failed send. */
const SETTLED_COLUMNS = new Set(['status', 'error', 'next_attempt_at']);

/**
 * A document's status only moves forward: a push that would take a sent or acknowledged status
 * back (the sender's send recorded after a 997 came in on the central) keeps the stored status;
 * its attempts and send time still apply. Answers the columns to set.
 */
export function keepSettledOutcome(
  table: ReplicatedTable,
  stored: Row,
  before: Row,
  incoming: Row,
  sets: string[],
): { sets: string[]; settled: boolean } {
  if (table.name !== 'order_documents' || !('status' in incoming)) return { sets, settled: false };
  const moved = bindable(before.status) !== bindable(incoming.status);
  if (!moved || statusRank(incoming.status) >= statusRank(stored.status)) {
    return { sets, settled: false };
  }
  return { sets: sets.filter((c) => !SETTLED_COLUMNS.has(c)), settled: true };
}
