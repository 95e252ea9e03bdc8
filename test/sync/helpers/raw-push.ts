import type SQLite from 'better-sqlite3';
import { executeRaw } from '../../../src/server/db/raw-query';
import type { RunningService } from '../../../src/server/http/server';
import type { RowChange } from '../../../src/server/sync/protocol';
import type { SeedDevice } from '../../../src/shared/sync-seed';
import type { ApiBody } from './cluster';

/** The central's SQLite handle, for the tests that are about SQLite itself. */
export const centralSqlite = (central: RunningService): SQLite.Database =>
  central.context.sync!.sqlite!;

export type Row = Record<string, unknown>;

/**
 * Runs SQL written with `?` placeholders on the central through its own engine (SQLite or
 * PostgreSQL, numbers read as the service reads them): the rows it returns.
 */
export async function centralQuery(
  central: RunningService,
  text: string,
  ...args: unknown[]
): Promise<Row[]> {
  return ((await executeRaw(central.context.db, text, args)) as { rows: Row[] }).rows;
}

/** The first row of `table` where `where` holds (by key order), or undefined. */
export async function centralRow(
  central: RunningService,
  table: string,
  where: string,
  ...args: unknown[]
): Promise<Row | undefined> {
  return (await centralQuery(central, `SELECT * FROM ${table} WHERE ${where}`, ...args))[0];
}

/** The headers every request of a device to the central's sync API carries. */
export const SYNC_HEADERS = { 'x-sync-protocol': '1', 'content-type': 'application/json' };

/** One request to a service's sync API as a device makes it: the status and the JSON answer ({} when empty). */
export async function syncCall(
  url: string,
  path: string,
  init: RequestInit & { auth?: string } = {},
): Promise<{ status: number; body: ApiBody }> {
  const { auth, ...rest } = init;
  const response = await fetch(`${url}${path}`, {
    ...rest,
    headers: { ...SYNC_HEADERS, ...(auth ? { authorization: auth } : {}), ...(rest.headers ?? {}) },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as ApiBody };
}

/** Opens a sync session with the device's secret; the bearer header value. Throws with the answer when refused. */
export async function signInDevice(
  url: string,
  device: { id: string; secret: string },
): Promise<string> {
  const answer = await syncCall(url, '/api/sync/v1/session', {
    method: 'POST',
    body: JSON.stringify({ device_id: device.id, device_secret: device.secret }),
  });
  if (answer.status !== 200)
    throw new Error(`device session refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  return `Bearer ${(answer.body as unknown as { token: string }).token}`;
}

/**
 * A hostile device talking to the central directly: it signs in with its real secret and pushes
 * whatever row changes a test hands it, one mutation each, with the next seq.
 */
export interface RawDevice {
  push(changes: RowChange[] | unknown[]): Promise<{ status: number; body: ApiBody }>;
  /** The reason of the last conflict the central recorded for this device, if any. */
  lastConflictReason(): Promise<string | null>;
  /** The last conflict the central recorded for this device. */
  lastConflict(): Promise<Row | undefined>;
}

/** The last seq the central applied from this device (0 before its first push). */
export const deviceLastSeq = async (central: RunningService, deviceId: string) =>
  Number(
    (
      await centralQuery(central, `SELECT last_seq FROM sync_clients WHERE client_id = ?`, deviceId)
    )[0]?.last_seq ?? 0,
  );

export async function rawDevice(central: RunningService, device: SeedDevice): Promise<RawDevice> {
  const auth = await signInDevice(central.url, device);
  const lastConflict = async () =>
    (
      await centralQuery(
        central,
        `SELECT * FROM sync_conflicts WHERE client_id = ? ORDER BY seq DESC LIMIT 1`,
        device.id,
      )
    )[0];
  return {
    async push(changes) {
      return syncCall(central.url, '/api/sync/v1/push', {
        method: 'POST',
        auth,
        body: JSON.stringify({
          mutations: [
            {
              seq: (await deviceLastSeq(central, device.id)) + 1,
              name: 'HOSTILE',
              args: { changes },
              at: new Date().toISOString(),
            },
          ],
        }),
      });
    },
    lastConflict,
    async lastConflictReason() {
      return ((await lastConflict())?.reason as string | undefined) ?? null;
    },
  };
}

/** The payload without the columns that say where a row belongs (a device may leave them out). */
export function withoutScope(row: Row): Row {
  const copy = { ...row };
  for (const column of ['facility_id', 'order_id', 'carton_id', 'snapshot_id']) delete copy[column];
  return copy;
}

/** A device's insert of one log row (transactions) at `facilityId`: a push with no delivery. */
export function logRowInsert(
  id: string,
  facilityId: string,
  at: string,
  extra: Row = {},
): RowChange {
  return {
    t: 'transactions',
    op: 'I',
    k: [id],
    new: {
      transaction_id: id,
      action_type: 'X',
      action_type_label: 'X',
      facility_id: facilityId,
      duration_ms: 0,
      execution_status: 'SUCCESS',
      request_method: 'POST',
      request_url: '/x',
      created_at: at,
      updated_at: at,
      ...extra,
    },
  };
}
