import { CompiledQuery } from 'kysely';
import type { Db } from '../db/db';
import { scopeTag } from './pull';
import { pageJson } from './pull-json';
import {
  cursorOf,
  epochOfCursor,
  parsePostgresCursor,
  type PullAnswer,
  type PullRequest,
} from './pull-cursor.postgres';

/** The central's latest version: of a row, or of an eviction (health.ts latestVersion). */
const LATEST = `greatest(coalesce((SELECT max(version) FROM sync_row_versions), 0),
  coalesce((SELECT max(version) FROM sync_evictions), 0))`;

/**
 * The device's sync_clients row when no transaction holds it, else nothing. A push holds its
 * device's row from its first statement to its commit (central-apply.ts lockClient); a pull of
 * the same device meanwhile (a second sync loop, another process) does not wait for it holding
 * a pooled connection, it leaves the record to the next pull (decision "A pull's record never
 * waits for the device's push"). A row not there yet is inserted, ON CONFLICT DO NOTHING.
 */
const UNLOCKED_CLIENT = (device: string) =>
  `SELECT client_id FROM sync_clients WHERE client_id = ${device} FOR UPDATE SKIP LOCKED`;

/**
 * Nothing new for the device: no entry of its facilities or without a facility (the scope rules
 * decide only among those), and no eviction of its facilities, in the window [low, xmin) after
 * the cursor's version. One statement, one snapshot: its xmin and what it reads agree as a
 * page's transaction does. When quiet, it also records the pull; a pull is bookkeeping for the
 * health figures, so its commit does not wait for the disk (decision "Cheap empty pulls").
 * $1 epoch, $2 low, $3 after, $4 facilities, $5 device, $6 time of the pull (null: not recorded).
 */
const QUIET_SQL = `WITH head AS (
    SELECT (SELECT epoch FROM sync_meta) AS epoch, pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
  answer AS (
    SELECT head.epoch, head.xmin, head.epoch = $1
      AND NOT EXISTS (SELECT 1 FROM sync_row_versions v
        WHERE v.xid >= $2::text::xid8 AND v.xid < head.xmin AND v.version > $3
          AND (v.facility_id = ANY($4::text[]) OR v.facility_id IS NULL))
      AND NOT EXISTS (SELECT 1 FROM sync_evictions e
        WHERE e.xid >= $2::text::xid8 AND e.xid < head.xmin AND e.version > $3
          AND e.facility_id = ANY($4::text[])) AS quiet
    FROM head),
  recorded AS (
    UPDATE sync_clients c SET last_pull_at = $6::text, pulled_version = ${LATEST}
    FROM answer WHERE answer.quiet AND $6::text IS NOT NULL
      AND c.client_id = (${UNLOCKED_CLIENT('$5')})),
  first_recorded AS (
    INSERT INTO sync_clients (client_id, last_pull_at, pulled_version)
    SELECT $5, $6::text, ${LATEST} FROM answer WHERE answer.quiet AND $6::text IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM sync_clients WHERE client_id = $5)
    ON CONFLICT (client_id) DO NOTHING)
  SELECT answer.epoch, answer.xmin::text AS xmin, answer.quiet,
    (SELECT last_seq FROM sync_clients WHERE client_id = $5) AS last_seq,
    set_config('synchronous_commit', 'off', true) AS lazy_commit
  FROM answer`;

/**
 * The answer to a pull that finds nothing new, or null when it may find something (or starts
 * over, or continues a window): then the page's transaction decides (pull.postgres.ts).
 */
export async function quietPull(db: Db, request: PullRequest): Promise<PullAnswer | null> {
  const { device, cursor } = request;
  const epoch = epochOfCursor(cursor);
  if (epoch === null) return null;
  const tag = scopeTag(device.facilityIds);
  const position = parsePostgresCursor(cursor, epoch, tag);
  if (position === null || position.high !== null) return null;
  const { rows } = await db.executeQuery<{
    epoch: string | null;
    xmin: string;
    quiet: boolean | null;
    last_seq: number | null;
  }>(
    CompiledQuery.raw(QUIET_SQL, [
      epoch,
      position.low,
      position.after,
      device.facilityIds,
      device.id,
      request.at ?? null,
    ]),
  );
  const answer = rows[0];
  if (!answer?.quiet || answer.epoch !== epoch) return null;
  const next = { low: answer.xmin, high: null, after: 0 };
  const json = pageJson(
    {
      epoch,
      reset: false,
      cursor: cursorOf(epoch, next, tag),
      more: false,
      last_seq: answer.last_seq ?? 0,
      evictions: [],
    },
    [],
  );
  return { json, more: false };
}

/**
 * Records a page's pull; `caughtUp` (no more pages) also records the latest version. Skipped while
 * the device's push holds its row (UNLOCKED_CLIENT).
 */
export async function recordPull(
  db: Db,
  deviceId: string,
  at: string,
  caughtUp: boolean,
): Promise<void> {
  await db.executeQuery(
    CompiledQuery.raw(
      `WITH lazy_commit AS (SELECT set_config('synchronous_commit', 'off', true)),
       recorded AS (
         UPDATE sync_clients c SET last_pull_at = $2,
           pulled_version = CASE WHEN $3::boolean THEN ${LATEST} ELSE c.pulled_version END
         FROM lazy_commit WHERE c.client_id = (${UNLOCKED_CLIENT('$1')}))
       INSERT INTO sync_clients (client_id, last_pull_at, pulled_version)
       SELECT $1, $2, CASE WHEN $3::boolean THEN ${LATEST} END FROM lazy_commit
       WHERE NOT EXISTS (SELECT 1 FROM sync_clients WHERE client_id = $1)
       ON CONFLICT (client_id) DO NOTHING`,
      [deviceId, at, caughtUp],
    ),
  );
}
