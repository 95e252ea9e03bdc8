import type SQLite from 'better-sqlite3';

/**
 * A counter that TEMP triggers move on every write to the watched tables, inside the writing
 * statement, so no write path can forget it (commands, seed imports, tests writing rows by hand).
 * Caches tag what they load with the value read before loading and drop it once the value moves.
 * The triggers live on this connection only (no migration); Kysely runs SQLite on one connection,
 * so a read that starts after a bump waits for the writing transaction and sees its rows.
 */
export interface WriteCounter {
  value: number;
}

/** Table -> the events that count (UPDATE OF lists the columns that matter). */
export type WatchedWrites = Record<string, readonly string[]>;

export function installWriteCounter(
  sqlite: SQLite.Database,
  name: string,
  watched: WatchedWrites,
): WriteCounter {
  const counter = { value: 0 };
  sqlite.function(name, { deterministic: false }, () => {
    counter.value += 1;
    return null;
  });
  for (const [table, events] of Object.entries(watched)) {
    events.forEach((event, index) => {
      sqlite.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS ${name}_${table}_${index} AFTER ${event} ` +
          `ON main.${table} BEGIN SELECT ${name}(); END`,
      );
    });
  }
  return counter;
}
