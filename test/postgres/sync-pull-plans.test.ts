import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgres, type OpenedPostgres } from '../../src/server/db/postgres/open';
import { buildPostgresPullPage } from '../../src/server/sync/pull.postgres';
import { installPostgresStamps } from '../../src/server/sync/stamps.postgres';
import { cloneTemplate, type ClonedDatabase } from '../helpers/postgres/databases';

/*
 * A pull page's statement is planned once per connection, not on every page (decisions 0222 and
 * "Generic plans for new windows"): a first pull and the rest of a window read the version index
 * (one text, planned with sorts off), a new window (every pull of a device keeping up) the xid
 * index (another text). Seen on the one connection of a pool of one, in pg_prepared_statements.
 */
const postgres = inject('postgres');
const DEVICE = { id: 'd0000000-0000-4000-8000-000000000001', facilityIds: [] as string[] };

describe.skipIf(!postgres)("a PostgreSQL pull page's plans", () => {
  let cloned: ClonedDatabase;
  let store: OpenedPostgres;
  beforeAll(async () => {
    cloned = await cloneTemplate(postgres!);
    store = await openPostgres(cloned.url, 1);
    await installPostgresStamps(store.db);
  });
  afterAll(async () => {
    await store?.close();
    await cloned?.drop();
  });

  const write = (id: string) =>
    sql`INSERT INTO retailers (id, name) VALUES (${id}, ${id})`.execute(store.db);

  type Plans = { read: string; generic_plans: number; custom_plans: number };
  const pagePlans = async () =>
    (
      await sql<Plans>`SELECT CASE WHEN statement LIKE '/* new window */%' THEN 'new window'
            ELSE 'version order' END AS read, generic_plans::int, custom_plans::int
          FROM pg_prepared_statements WHERE statement LIKE '%string_agg%'
          ORDER BY 1`.execute(store.db)
    ).rows;

  it('plans each read once per connection: a first pull in pages, then new windows', async () => {
    for (let i = 0; i < 6; i++) await write(`first-${i}`);
    let page = await buildPostgresPullPage(store.db, DEVICE, undefined, 2);
    while (page.more) page = await buildPostgresPullPage(store.db, DEVICE, page.cursor, 2);
    for (let i = 0; i < 4; i++) {
      await write(`new-${i}`);
      page = await buildPostgresPullPage(store.db, DEVICE, page.cursor, 100);
      expect(page.changes.map((c) => c.k[0])).toEqual([`new-${i}`]);
    }
    const plans = await pagePlans();
    expect(plans.map((p) => p.read)).toEqual(['new window', 'version order']);
    for (const plan of plans) {
      expect(plan.custom_plans, plan.read).toBe(0);
      expect(plan.generic_plans, plan.read).toBeGreaterThanOrEqual(3);
    }
  });
});
