import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import type { PulledChange } from '../../src/server/sync/protocol';
import { openEngineCentral } from '../sync/helpers/pull-central-engines';
import { openPullCentral } from '../sync/helpers/pull-fixture';
import { build, world } from '../sync/helpers/pull-scope-world';

/*
 * The PostgreSQL pull applies pull.ts's scope rules (issue 17 item 2): for random worlds of the
 * pull scope property, a central on each engine holding the same rows sends a device the same
 * rows. Fixed seed (PULL_SCOPE_SEED), few runs: each one clones a database.
 */
const SEED = Number(process.env.PULL_SCOPE_SEED ?? 20261126);
const RUNS = Number(process.env.PULL_SCOPE_PG_RUNS ?? 15);

const sent = (changes: PulledChange[]) =>
  changes
    .map((c) => ({ t: c.t, k: JSON.stringify(c.k), row: c.row ?? null }))
    .sort((a, b) => `${a.t}${a.k}`.localeCompare(`${b.t}${b.k}`));

describe.skipIf(!inject('postgres'))('pull scope on both engines', () => {
  it('a device pulls the same rows from a SQLite and a PostgreSQL central', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const sqlite = await openPullCentral();
        const postgres = await openEngineCentral('postgres');
        try {
          const inserted: [string, Record<string, unknown>][] = [];
          const scope = build(
            {
              insert(table, row) {
                const stored = sqlite.insert(table, row);
                inserted.push([table, stored]);
                return stored;
              },
            },
            w,
          );
          for (const [table, row] of inserted) await postgres.insert(table, row);
          const fromSqlite = sqlite.pullAll(scope.device);
          const fromPostgres = await postgres.pullAll(scope.device);
          expect(sent(fromPostgres.changes)).toEqual(sent(fromSqlite.changes));
        } finally {
          await sqlite.close();
          await postgres.close();
        }
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: 60_000 },
    );
  }, 90_000);
});
