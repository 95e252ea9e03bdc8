/**
 * `npm run bench -- advice without=PARTS`: a what-if, not the service as shipped. Before the
 * warm-up it drops schema objects that an advice's commits maintain from the bench's own
 * database, so the bench shows what the advice would cost without them. PARTS, comma-separated:
 * - `search`: the log's FTS5 trigram search trigger (search ids and index);
 * - `log-order`: the log's 7 time-ordered indexes and the deliveries' connection index;
 * - `all`: every index and trigger on the log, the snapshots and the deliveries (the lists,
 *   counts and searches of the interface then break; this is the storage floor of our code).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';

const PARTS: Record<string, (name: string) => boolean> = {
  search: (name) => name === 'transactions_search_insert',
  'log-order': (name) =>
    /^transactions_(created_id|updated_id|\w+_created)$/.test(name) ||
    name === 'advice_deliveries_connection_created',
  all: (name) => !name.startsWith('sqlite_'),
};

const TABLES = ['transactions', 'advice_deliveries', 'advice_documents', 'advice_snapshots'];

/** The parts named by a `without=a,b` argument, or none. */
export function whatIfPartsOf(args: string[]): string[] {
  const arg = args.find((a) => a.startsWith('without='));
  if (!arg) return [];
  const parts = arg.slice('without='.length).split(',').filter(Boolean);
  for (const part of parts) {
    if (!(part in PARTS)) {
      throw new Error(`unknown what-if part ${part}; one of ${Object.keys(PARTS).join(', ')}`);
    }
  }
  return parts;
}

/** Drops the named parts from the service's database; returns what was dropped. */
export function dropSchemaParts(dataDir: string, parts: string[]): string[] {
  const db = new Database(join(dataDir, 'app.sqlite'));
  try {
    const objects = db
      .prepare(
        `SELECT type, name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL
         AND tbl_name IN (${TABLES.map(() => '?').join(', ')})`,
      )
      .all(...TABLES) as { type: 'index' | 'trigger'; name: string }[];
    const dropped = objects.filter((o) => parts.some((part) => PARTS[part]!(o.name)));
    // The service's statements see the change and prepare again (SQLITE_SCHEMA).
    for (const o of dropped) db.exec(`DROP ${o.type.toUpperCase()} "${o.name}"`);
    return dropped.map((o) => o.name);
  } finally {
    db.close();
  }
}
