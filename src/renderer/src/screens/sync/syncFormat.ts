import type {
  ConflictAction,
  ConflictField,
  SyncConflict,
  SyncStatus,
} from '../../../../shared/sync';
import { plural } from '../../format/plural';

/** Where a time is shown: the workstation's locale and zone unless a test names others. */
export interface TimeSettings {
  locale?: string;
  timeZone?: string;
}

/** The newer of two instants (either may be missing or unreadable); null when neither reads. */
export function latestSync(a: string | null, b: string | null): string | null {
  const times = [a, b].filter(
    (value): value is string => value !== null && !Number.isNaN(Date.parse(value)),
  );
  if (times.length === 0) return null;
  return times.reduce((newest, value) => (Date.parse(value) > Date.parse(newest) ? value : newest));
}

/** A sync time for the badge: the clock time when it is today, the date and time otherwise. */
export function formatSyncClock(
  iso: string,
  now: Date = new Date(),
  { locale, timeZone }: TimeSettings = {},
): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = (value: Date) => value.toLocaleDateString('en-CA', { timeZone });
  return day(date) === day(now)
    ? date.toLocaleTimeString(locale, { timeStyle: 'short', timeZone })
    : date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
}

/**
 * What the header badge says, or null when it shows nothing (a standalone install):
 * `Online · 0 waiting · synced 09:12`, `Offline · 3 waiting · 2 conflicts`, `Central service`.
 * The last sync time shows only while online: offline, the waiting count is what matters.
 */
export function badgeSentence(
  status: SyncStatus,
  now: Date = new Date(),
  settings: TimeSettings = {},
): string | null {
  if (status.role === 'standalone') return null;
  if (status.role === 'central') return 'Central service';
  const parts = [status.online ? 'Online' : 'Offline', `${status.pending_mutations} waiting`];
  const synced = latestSync(status.last_push_at, status.last_pull_at);
  if (status.online && synced !== null) {
    parts.push(`synced ${formatSyncClock(synced, now, settings)}`);
  }
  if (status.conflicts > 0) parts.push(plural(status.conflicts, 'conflict'));
  return parts.join(' · ');
}

/** What the badge's look signals: all well, working offline, or conflicts to settle. */
export function badgeTone(status: SyncStatus): 'ok' | 'offline' | 'conflicts' {
  if (status.role === 'workstation' && status.conflicts > 0) return 'conflicts';
  if (status.role === 'workstation' && !status.online) return 'offline';
  return 'ok';
}

/** The shown form of a value the central refused or holds. */
export const EMPTY_VALUE = '(empty)';

/** A JSON value made readable: text as-is, nothing as `(empty)`, anything else as compact JSON. */
export function formatConflictValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return EMPTY_VALUE;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Field names as the table lists them: the bare field when every one belongs to the same table,
 * `table.field` when they come from several (an order's `quantity` is not its line's).
 */
export function fieldLabels(fields: readonly ConflictField[]): string[] {
  const tables = new Set(fields.map((field) => field.table));
  return fields.map((field) => (tables.size > 1 ? `${field.table}.${field.field}` : field.field));
}

/** A mutation's name for people: `ORDER_UPDATE` and `order.update` both read `Order update`. */
export function mutationLabel(mutation: string): string {
  const words = mutation
    .split(/[._\s-]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
  if (words.length === 0) return mutation;
  const sentence = words.join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** How a row's buttons name their conflict: its order's picksheet code, else its change number. */
export function conflictName(conflict: Pick<SyncConflict, 'picksheet_code' | 'seq'>): string {
  return conflict.picksheet_code ?? `change ${conflict.seq}`;
}

/** What the screen says once a conflict is settled. */
export function resolvedMessage(
  conflict: Pick<SyncConflict, 'picksheet_code' | 'seq'>,
  action: ConflictAction,
): string {
  const name = conflictName(conflict);
  return action === 'keep_central'
    ? `${name}: kept the central service's values.`
    : `${name}: your values are applied again as a new change, which the central service checks when it gets it. If the order has changed meanwhile (shipped, for example), it may refuse them again.`;
}

/** What the screen says once a refused new order is created again under another code. */
export function recreatedMessage(
  conflict: Pick<SyncConflict, 'picksheet_code' | 'seq'>,
  newCode: string,
): string {
  return `${conflictName(conflict)}: created again as ${newCode}, with the values it held. The central service checks the new code when it gets it.`;
}

/** A resolved conflict's outcome in words. */
export function resolutionLabel(conflict: Pick<SyncConflict, 'resolution'>): string {
  if (conflict.resolution === 'keep_central') return "Kept central's";
  if (conflict.resolution === 'apply_mine') return 'Applied mine';
  if (conflict.resolution === 'created_new') return 'Created with a new picksheet code';
  return 'Resolved';
}

/** A refused new order: its order id names an order that exists nowhere, so nothing links to it. */
export function isRefusedCreate(conflict: Pick<SyncConflict, 'offers' | 'resolution'>): boolean {
  return (
    conflict.offers.includes('create_with_new_picksheet') || conflict.resolution === 'created_new'
  );
}

/** A role in words, for the summary. */
export function roleLabel(role: SyncStatus['role']): string {
  if (role === 'workstation') return 'Workstation';
  if (role === 'central') return 'Central service';
  return 'Standalone';
}
