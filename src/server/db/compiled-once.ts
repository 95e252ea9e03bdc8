import type { CompiledQuery, Kysely } from 'kysely';
import { engineOf } from './engine';

/**
 * Queries on hot paths built with Kysely's builder once per engine and shape, then run with new
 * values: building and compiling a query (a node per value, a visitor over them) costs tens of
 * microseconds, several times what SQLite takes to run a small one. The query is built with
 * placeholder values (`slot(i)`) that never occur in real data; every run swaps them for the
 * values given. Values the builder itself added (constants) stay as compiled. The cache is keyed
 * by engine, not by database object, so a transaction reuses what its database compiled.
 */

const SLOT_PREFIX = '\u0000compiled-once-slot:';

/** The stand-in for the i-th value while a query is compiled. */
export function slot(i: number): string {
  return `${SLOT_PREFIX}${i}`;
}

/** The stand-ins for `count` values starting at `from`. */
export function slots(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => slot(from + i));
}

type Executor = Pick<Kysely<never>, 'getExecutor' | 'executeQuery'>;

const compiled = new Map<string, CompiledQuery>();

/**
 * Runs the query `build` makes, compiled once per engine and `shape` (a name plus whatever changes
 * the SQL text, such as the length of an `in` list), with `values[i]` in place of `slot(i)`.
 */
export async function runCompiledOnce<Row>(
  db: Executor,
  shape: string,
  build: () => { compile(): CompiledQuery<Row> },
  values: readonly unknown[],
): Promise<Row[]> {
  const key = `${engineOf(db)}\u0000${shape}`;
  let query = compiled.get(key) as CompiledQuery<Row> | undefined;
  if (!query) {
    query = build().compile();
    compiled.set(key, query);
  }
  const parameters = query.parameters.map((p) =>
    typeof p === 'string' && p.startsWith(SLOT_PREFIX)
      ? values[Number(p.slice(SLOT_PREFIX.length))]
      : p,
  );
  return (await db.executeQuery<Row>({ ...query, parameters })).rows;
}
