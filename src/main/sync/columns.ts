import type SQLite from 'better-sqlite3';

/** The columns of a table, in order (PRAGMA table_info); cached per connection and table. */
const cache = new WeakMap<SQLite.Database, Map<string, string[]>>();

export function columnsOf(sqlite: SQLite.Database, table: string): string[] {
  let tables = cache.get(sqlite);
  if (!tables) {
    tables = new Map();
    cache.set(sqlite, tables);
  }
  let columns = tables.get(table);
  if (!columns) {
    const info = sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
    columns = info.map((c) => c.name);
    tables.set(table, columns);
  }
  return columns;
}
