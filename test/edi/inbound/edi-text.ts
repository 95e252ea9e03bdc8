import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Test helpers for X12 text: the golden files, and edits by segment. */

export const GOLDEN_DIR = join(import.meta.dirname, '..', 'golden');

export function golden(name: string): string {
  return readFileSync(join(GOLDEN_DIR, name), 'utf8');
}

/** The segments of a '~'-terminated, '*'-separated text (line breaks dropped). */
export function segmentsOf(text: string): string[] {
  return text
    .split('~')
    .map((segment) => segment.replace(/^[\r\n]+/, ''))
    .filter((segment) => segment !== '');
}

export function joinSegments(segments: string[]): string {
  return segments.map((segment) => `${segment}~\n`).join('');
}

/**
 * The text with the `nth` (0-based) segment whose tag is `tag` replaced by `edit(segment)`;
 * null removes it.
 */
export function editSegment(
  text: string,
  tag: string,
  edit: (segment: string) => string | null,
  nth = 0,
): string {
  let seen = -1;
  const out: string[] = [];
  for (const segment of segmentsOf(text)) {
    if (segment.split('*')[0] === tag && ++seen === nth) {
      const edited = edit(segment);
      if (edited !== null) out.push(edited);
    } else out.push(segment);
  }
  if (seen < nth) throw new Error(`no segment ${tag} #${nth}`);
  return joinSegments(out);
}

/** Sets element n (1-based) of a segment. */
export function setElement(segment: string, n: number, value: string): string {
  const values = segment.split('*');
  while (values.length <= n) values.push('');
  values[n] = value;
  return values.join('*');
}
