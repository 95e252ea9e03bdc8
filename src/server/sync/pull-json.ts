import type { PullPage } from './protocol';

/*
 * A pull page as JSON text, built from pieces that are already JSON (the central's rows as
 * PostgreSQL's row_to_json wrote them), so a page of 5,000 rows is never decoded into objects and
 * encoded again. The text is the one JSON.stringify gives for the same page object: same keys in
 * the same order, same values (docs/decisions, "The PostgreSQL pull: rows as JSON text").
 */

/** A page's fields other than its changes, in PullPage's key order. */
export type PageHead = Omit<PullPage, 'changes'>;

/** `{epoch, reset, cursor, more, last_seq, changes, evictions}` around changes already in JSON. */
export function pageJson(head: PageHead, changes: string[]): string {
  return (
    `{"epoch":${JSON.stringify(head.epoch)},"reset":${head.reset},` +
    `"cursor":${JSON.stringify(head.cursor)},"more":${head.more},"last_seq":${head.last_seq},` +
    `"changes":[${changes.join(',')}],"evictions":${JSON.stringify(head.evictions)}}`
  );
}

/**
 * A row_key (the JSON array text the stamps store) that JSON.stringify(JSON.parse(key)) leaves as
 * it is: strings of characters from space on but `"` and `\` (no escapes), and integers short
 * enough to stay exact. Others (a key copied from SQLite with an escaped character, say) are
 * parsed and written again.
 */
const PLAIN_ELEMENT = String.raw`(?:"[ !#-[\]-\uffff]*"|-?\d{1,15})`;
const PLAIN_KEY_BODY = String.raw`\[${PLAIN_ELEMENT}(?:,${PLAIN_ELEMENT})*\]`;
const PLAIN_KEY = new RegExp(`^${PLAIN_KEY_BODY}$`);

const keyJson = (rowKey: string) =>
  PLAIN_KEY.test(rowKey) ? rowKey : JSON.stringify(JSON.parse(rowKey) as unknown);

/**
 * Marks an entry's place in changes written by PostgreSQL (pull-page.postgres.ts): U+0001, the
 * entry's number, U+0001. JSON text never holds the character itself (a string escapes it), so a
 * mark cannot be confused with a row's text.
 */
export const OWN_MARK = '\u0001';

/** Changes with marks, each mark replaced by the change of that number (`own`). */
export function spliceChanges(marked: string, own: ReadonlyMap<number, string>): string {
  const parts = marked.split(OWN_MARK);
  if (parts.length === 1) return marked;
  // Text, number, text, number, …, text.
  for (let i = 1; i < parts.length; i += 2) {
    const change = own.get(Number(parts[i]));
    if (change === undefined) throw new Error(`pull page: no change numbered ${parts[i]}`);
    parts[i] = change;
  }
  return parts.join('');
}

/** `{t, k, v, row}`: `row` is the row's JSON text. */
export function changeJson(table: string, rowKey: string, version: number, row: string): string {
  return `{"t":${JSON.stringify(table)},"k":${keyJson(rowKey)},"v":${version},"row":${row}}`;
}

/** `{t, k, v, deleted: true}`. */
export function tombstoneJson(table: string, rowKey: string, version: number): string {
  return `{"t":${JSON.stringify(table)},"k":${keyJson(rowKey)},"v":${version},"deleted":true}`;
}

/**
 * Where PostgreSQL's JSON of a row could differ from JSON.stringify of the row as `pg` decodes it:
 * a float in exponent notation (`1e-05`; JavaScript writes 0.00001), a negative zero, NaN or
 * Infinity (quoted by PostgreSQL, null in JavaScript), an integer past 2^53 (`pg` makes it a
 * Number). A number follows a `:` directly, a string never does, so only text inside a string
 * value can match by accident; such rows just take the decoded way.
 */
const MAY_DIFFER = /:(?:-?\d+(?:\.\d+)?e[-+]|-0[,}]|-?\d{16})|"-?(?:NaN|Infinity)"/;

export function mayDiffer(rowJson: string): boolean {
  return MAY_DIFFER.test(rowJson);
}

/**
 * Changes written by PostgreSQL (pull-page.postgres.ts) that may differ from JSON.stringify's: a
 * row that may (mayDiffer), or a key that is not plain. Each change's key follows `"k":` and is
 * followed by `,"v":`; a plain key has no `"` or `\` inside its strings, so any `"k":` not
 * followed by a plain key and `,"v":` (a key that is not plain, or that text inside a row) says
 * yes. One pass over the page's text.
 */
const CHANGES_MAY_DIFFER = new RegExp(`${MAY_DIFFER.source}|"k":(?!${PLAIN_KEY_BODY},"v":)`);

export function changesMayDiffer(changes: string): boolean {
  return CHANGES_MAY_DIFFER.test(changes);
}
