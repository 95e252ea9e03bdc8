import { describe, expect, it } from 'vitest';
import {
  changeJson,
  changesMayDiffer,
  mayDiffer,
  OWN_MARK,
  spliceChanges,
} from '../../src/server/sync/pull-json';

/*
 * The PostgreSQL pull's page text (pull-page.postgres.ts): PostgreSQL writes the changes, Node
 * tests the whole text once and writes the marked entries itself.
 */
const change = (key: string, row: string) => `{"t":"orders","k":${key},"v":7,"row":${row}}`;
const ROW = '{"id":"a","n":1.5,"s":"x 1e-5 \\"k\\":[1]"}';

describe('the page text of changes', () => {
  it('passes plain keys and rows, and catches a key that is not plain anywhere in the text', () => {
    const plain = [change('["a"]', ROW), change('["b",12]', ROW), change('[-3,"c d"]', ROW)];
    expect(changesMayDiffer(plain.join(','))).toBe(false);
    for (const key of [
      String.raw`["a\"b"]`,
      String.raw`["\u0061"]`,
      '["a", "b"]',
      '[1234567890123456]',
      '[1.5]',
      '[true]',
      '[]',
    ]) {
      expect(changesMayDiffer([...plain, change(key, ROW)].join(',')), key).toBe(true);
    }
  });

  it('catches what a row may write differently, as mayDiffer does for one row', () => {
    for (const row of ['{"w":1e-05}', '{"w":-0}', '{"w":"NaN"}', '{"w":12345678901234567}']) {
      expect(mayDiffer(row)).toBe(true);
      expect(changesMayDiffer(change('["a"]', row))).toBe(true);
    }
  });

  it('puts each marked entry in its place, and refuses a mark it has no change for', () => {
    const mark = (n: number) => `${OWN_MARK}${n}${OWN_MARK}`;
    const a = changeJson('orders', '["a"]', 1, '{}');
    const c = changeJson('connections', '["c"]', 2, '{"id":"c"}');
    const d = changeJson('orders', '["d"]', 3, '{}');
    const own = new Map([
      [2, c],
      [5, d],
    ]);
    expect(spliceChanges(`${a},${mark(2)},${mark(5)}`, own)).toBe(`${a},${c},${d}`);
    expect(spliceChanges(`${mark(5)}`, own)).toBe(d);
    expect(spliceChanges(a, new Map())).toBe(a);
    expect(() => spliceChanges(`${a},${mark(3)}`, own)).toThrow(/numbered 3/);
  });
});
