import type SQLite from 'better-sqlite3';
import type { RunningService } from '../../../src/main/service/server';
import type { RowChange } from '../../../src/main/sync/protocol';
import type { SeedDevice } from '../../../src/shared/sync-seed';
import type { ApiBody } from './cluster';

/** The central's SQLite handle, to read what a push left (synchronous, on Kysely's one connection). */
export const centralSqlite = (central: RunningService): SQLite.Database =>
  central.context.sync!.sqlite;

export type Row = Record<string, unknown>;

export function centralRow(
  central: RunningService,
  table: string,
  where: string,
  ...args: unknown[]
) {
  return centralSqlite(central)
    .prepare(`SELECT * FROM ${table} WHERE ${where}`)
    .get(...args) as Row | undefined;
}

/**
 * A hostile device talking to the central directly: it signs in with its real secret and pushes
 * whatever row changes a test hands it, one mutation each, with the next seq.
 */
export interface RawDevice {
  push(changes: RowChange[] | unknown[]): Promise<{ status: number; body: ApiBody }>;
  /** The reason of the last conflict the central recorded for this device, if any. */
  lastConflictReason(): string | null;
  /** The last conflict the central recorded for this device. */
  lastConflict(): Row | undefined;
}

export async function rawDevice(central: RunningService, device: SeedDevice): Promise<RawDevice> {
  const headers = { 'x-sync-protocol': '1', 'content-type': 'application/json' };
  const session = await fetch(`${central.url}/api/sync/v1/session`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ device_id: device.id, device_secret: device.secret }),
  });
  const { token } = (await session.json()) as { token: string };
  const sqlite = centralSqlite(central);
  const lastSeq = () =>
    (
      sqlite.prepare(`SELECT last_seq FROM sync_clients WHERE client_id = ?`).get(device.id) as
        { last_seq: number } | undefined
    )?.last_seq ?? 0;
  const lastConflict = () =>
    sqlite
      .prepare(`SELECT * FROM sync_conflicts WHERE client_id = ? ORDER BY seq DESC LIMIT 1`)
      .get(device.id) as Row | undefined;
  return {
    async push(changes) {
      const response = await fetch(`${central.url}/api/sync/v1/push`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${token}` },
        body: JSON.stringify({
          mutations: [
            {
              seq: lastSeq() + 1,
              name: 'HOSTILE',
              args: { changes },
              at: new Date().toISOString(),
            },
          ],
        }),
      });
      return { status: response.status, body: (await response.json()) as ApiBody };
    },
    lastConflict,
    lastConflictReason() {
      return (lastConflict()?.reason as string | undefined) ?? null;
    },
  };
}

/** The payload without the columns that say where a row belongs (a device may leave them out). */
export function withoutScope(row: Row): Row {
  const copy = { ...row };
  for (const column of ['facility_id', 'order_id', 'carton_id', 'snapshot_id']) delete copy[column];
  return copy;
}
