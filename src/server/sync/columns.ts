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

const statementCache = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>();
const STATEMENTS_KEPT = 512;

/**
 * A prepared statement by SQL text, kept per connection: sync builds its SQL per table and
 * column set, and preparing it again for every row costs more than running it.
 */
export function prepared(sqlite: SQLite.Database, sqlText: string): SQLite.Statement {
  let statements = statementCache.get(sqlite);
  if (!statements) {
    statements = new Map();
    statementCache.set(sqlite, statements);
  }
  let statement = statements.get(sqlText);
  if (!statement) {
    if (statements.size >= STATEMENTS_KEPT) statements.clear();
    statement = sqlite.prepare(sqlText);
    statements.set(sqlText, statement);
  }
  return statement;
}
