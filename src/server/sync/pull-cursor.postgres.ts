import { parseCursor } from './pull';

/**
 * Where a device is: a window of writing transactions [low, high) served up to version `after`;
 * `high` null when the next pull opens the window [low, current xmin). A SQLite-era cursor
 * (`epoch:version:scope`, a central copied from SQLite) is the window [0, xmin) after its
 * version: copied rows keep their versions and have xid 0, and every version written here is
 * higher than theirs (stamps.postgres.ts).
 */
export interface Position {
  low: string;
  high: string | null;
  after: number;
}

const WINDOW = /^([0-9a-f-]{36}):w(\d+)-(\d*)-(\d+):([0-9a-f]{12})$/;

export function parsePostgresCursor(
  cursor: string | undefined,
  epoch: string,
  scope: string,
): Position | null {
  const window = WINDOW.exec(cursor ?? '');
  if (window) {
    if (window[1] !== epoch || window[5] !== scope) return null;
    return { low: window[2]!, high: window[3] || null, after: Number(window[4]) };
  }
  const version = parseCursor(cursor, epoch, scope);
  return version === null ? null : { low: '0', high: null, after: version };
}

/**
 * Whether a page from this cursor is read best along the version index from its `after` on: a
 * first pull (no cursor, or one not of this central: the whole table is the window) or a window
 * half served (what is left of it follows `after`). Not a new window (after 0), which the xid
 * index finds (pull.postgres.ts pageIn).
 */
export function readsInVersionOrder(cursor: string | undefined): boolean {
  const window = WINDOW.exec(cursor ?? '');
  return window === null || Number(window[4]) > 0;
}

/** The epoch a cursor names (checked against the central's by parsePostgresCursor). */
export const epochOfCursor = (cursor: string | undefined): string | null =>
  /^([0-9a-f-]{36}):/.exec(cursor ?? '')?.[1] ?? null;

export const cursorOf = (epoch: string, position: Position, tag: string) =>
  `${epoch}:w${position.low}-${position.high ?? ''}-${position.after}:${tag}`;

export interface PullRequest {
  device: { id: string; facilityIds: string[] };
  cursor: string | undefined;
  limit: number;
  /** When given, the pull is recorded in `sync_clients` (last_pull_at; pulled_version at the end). */
  at?: string;
  /**
   * Every change written by Node, entry by entry, as for a page whose text may differ
   * (pull-page.postgres.ts); the same text either way (the tests compare both).
   */
  perRow?: boolean;
}

/** The page as the device receives it: JSON text, and whether another page follows. */
export interface PullAnswer {
  json: string;
  more: boolean;
}
