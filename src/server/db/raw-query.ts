import { CompiledQuery, type Kysely } from 'kysely';
import { engineOf } from './engine';

const numberedTexts = new Map<string, string>();

/**
 * Runs a fixed SQL text written with `?` placeholders (hot paths that skip Kysely's builder) on
 * either engine: PostgreSQL wants them numbered ($1, $2…). The texts are constants of the
 * callers with no `?` inside literals; every value is a bound parameter.
 */
export function executeRaw(
  db: Pick<Kysely<never>, 'getExecutor' | 'executeQuery'>,
  text: string,
  parameters: readonly unknown[],
): Promise<unknown> {
  return db.executeQuery(CompiledQuery.raw(textFor(db, text), [...parameters]));
}

function textFor(db: Pick<Kysely<never>, 'getExecutor'>, text: string): string {
  if (engineOf(db) === 'sqlite') return text;
  let numbered = numberedTexts.get(text);
  if (numbered === undefined) {
    let n = 0;
    numbered = text.replace(/\?/g, () => `$${++n}`);
    numberedTexts.set(text, numbered);
  }
  return numbered;
}
