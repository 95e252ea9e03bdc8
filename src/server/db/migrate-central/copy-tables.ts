import type pg from 'pg';
import type { SourceCentral } from './source';
import { COPIED_ROW_VALUES, NULLED_COLUMNS } from './postgres-rules';

/** One table to copy: the columns both engines have, and those PostgreSQL alone has. */
export interface TablePlan {
  name: string;
  columns: string[];
  /** PostgreSQL-only columns and the SQL value copied rows get (./postgres-rules). */
  extra: Record<string, string>;
  ordered: boolean;
}

/** PostgreSQL takes at most 65,535 parameters a statement; rows per INSERT stay well below. */
const MAX_PARAMETERS = 30_000;
const MAX_ROWS_PER_INSERT = 1_000;

export function planTable(
  name: string,
  sourceColumns: string[],
  targetColumns: string[],
  hasRowid: boolean,
): TablePlan {
  const columns = sourceColumns.filter((c) => targetColumns.includes(c));
  const extra = Object.fromEntries(
    Object.entries(COPIED_ROW_VALUES[name] ?? {}).filter(([c]) => targetColumns.includes(c)),
  );
  return { name, columns, extra, ordered: hasRowid };
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Copies one table's rows in batches (inside the caller's transaction), in rowid order so
 * identity values come in the order they were made. Returns the rows copied.
 */
export async function copyTable(
  source: SourceCentral,
  client: pg.Client,
  plan: TablePlan,
): Promise<number> {
  if (plan.columns.length === 0) return 0;
  const nulled = new Set(NULLED_COLUMNS[plan.name] ?? []);
  const select = source.sqlite
    .prepare(
      `SELECT ${plan.columns.map((c) => (nulled.has(c) ? `NULL AS ${quoted(c)}` : quoted(c))).join(', ')}
         FROM ${quoted(plan.name)}${plan.ordered ? ' ORDER BY rowid' : ''}`,
    )
    .raw(true);
  const extraColumns = Object.keys(plan.extra);
  const head = `INSERT INTO ${quoted(plan.name)} (${[...plan.columns, ...extraColumns]
    .map(quoted)
    .join(', ')}) VALUES `;
  const perRow = plan.columns.length;
  const batch = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMETERS / perRow)));
  let rows: unknown[][] = [];
  let copied = 0;
  const flush = async () => {
    if (rows.length === 0) return;
    const tuples = rows.map((_, r) => {
      const values = plan.columns.map((_c, i) => `$${r * perRow + i + 1}`);
      return `(${[...values, ...extraColumns.map((c) => plan.extra[c]!)].join(', ')})`;
    });
    await client.query(head + tuples.join(', '), rows.flat());
    copied += rows.length;
    rows = [];
  };
  // The iterator keeps the SQLite statement open: nothing else runs on that connection meanwhile.
  for (const row of select.iterate() as IterableIterator<unknown[]>) {
    rows.push(row);
    if (rows.length >= batch) await flush();
  }
  await flush();
  return copied;
}

/** Rows of a table on both sides, for the check before COMMIT. */
export async function countBoth(
  source: SourceCentral,
  client: pg.Client,
  table: string,
): Promise<{ source: number; target: number }> {
  const s = source.sqlite.prepare(`SELECT count(*) AS n FROM ${quoted(table)}`).get() as {
    n: bigint;
  };
  const t = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoted(table)}`);
  return { source: Number(s.n), target: t.rows[0]!.n };
}
