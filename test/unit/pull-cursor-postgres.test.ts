import { describe, expect, it } from 'vitest';
import { cursorOf, readsInVersionOrder } from '../../src/server/sync/pull-cursor.postgres';

/*
 * Which PostgreSQL pull pages take the generic plan that reads the version index in order
 * (pull.postgres.ts pageIn): a first pull and the rest of a window, never a new window, which a
 * custom plan finds by the xid index without reading the whole version index.
 */
const EPOCH = '0a000000-0000-4000-8000-000000000001';
const TAG = 'abcdef012345';

describe('the plan of a PostgreSQL pull page', () => {
  it('reads in version order for a first pull and the rest of a window', () => {
    expect(readsInVersionOrder(undefined)).toBe(true);
    expect(readsInVersionOrder('not a cursor')).toBe(true);
    expect(readsInVersionOrder(`${EPOCH}:120:${TAG}`)).toBe(true); // SQLite-era: [0, xmin) after 120
    expect(readsInVersionOrder(cursorOf(EPOCH, { low: '0', high: '900', after: 77 }, TAG))).toBe(
      true,
    );
  });

  it('finds a new window by its transactions instead', () => {
    expect(readsInVersionOrder(cursorOf(EPOCH, { low: '900', high: null, after: 0 }, TAG))).toBe(
      false,
    );
  });
});
