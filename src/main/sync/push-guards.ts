import type SQLite from 'better-sqlite3';
import { prepared } from './columns';
import type { RowChange } from './protocol';
import { CENTRAL_ID } from './runtime';
import { Refusal } from './refusal';

const OUT_OF_SCOPE = 'The row belongs to a facility this workstation does not serve';

/**
 * Rows that name a facility themselves (log rows, snapshots, conflicts) must name one of the
 * device's, before and after the change (orders are checked with their aggregate).
 */
export function guardFacilityRows(changes: RowChange[], facilityIds: ReadonlySet<string>): void {
  for (const change of changes) {
    if (!['transactions', 'advice_snapshots', 'sync_conflicts'].includes(change.t)) continue;
    for (const row of [change.old, change.new]) {
      const facility = row?.facility_id;
      if (typeof facility === 'string' && !facilityIds.has(facility))
        throw new Refusal(OUT_OF_SCOPE);
    }
  }
}

/**
 * A delivery is written by its sender only. A device may queue one for the central, whose
 * document the central builds itself: whatever document came with it is dropped.
 */
export function guardDeliveries(
  sqlite: SQLite.Database,
  changes: RowChange[],
  deviceId: string,
): void {
  for (const change of changes) {
    if (change.t !== 'advice_deliveries') continue;
    if (change.op === 'I') {
      const row = change.new ?? {};
      if (row.sender_id === CENTRAL_ID) {
        Object.assign(row, {
          status: 'PENDING',
          document: null,
          content_type: null,
          file_name: null,
          interchange_control_number: null,
          next_attempt_at: null,
        });
      } else if (row.sender_id !== deviceId) {
        throw new Refusal('A delivery is recorded by the replica that sends it');
      }
      continue;
    }
    const current = prepared(sqlite, `SELECT sender_id FROM advice_deliveries WHERE id = ?`).get(
      change.k[0] ?? null,
    ) as { sender_id: string | null } | undefined;
    if (current && current.sender_id !== deviceId) {
      throw new Refusal('Only the replica that sends a delivery records its outcome');
    }
  }
}
