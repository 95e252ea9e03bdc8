import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authDataVersion } from '../../src/server/db/auth-version';
import type { Db } from '../../src/server/db/db';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/database';
import type { Database } from '../../src/server/db/schema';
import { cachedAuthData } from '../../src/server/access/auth-cache';
import { importSeedBundle } from '../../src/server/seed/seed';
import { baseBundle, id } from '../helpers/fixtures';
import { TEST_PASSWORD_COST } from '../helpers/service';

let database: OpenedDatabase;
let db: Db;
beforeEach(async () => {
  database = await openDatabase(':memory:');
  db = database.db;
  await importSeedBundle(db, baseBundle(), { passwordCost: TEST_PASSWORD_COST });
});
afterEach(async () => {
  await database.close();
});

/** Whether running `write` moves the auth data version. */
async function moves(write: () => Promise<unknown>): Promise<boolean> {
  const before = await authDataVersion(db);
  await write();
  return (await authDataVersion(db)) !== before;
}

describe('the auth data version', () => {
  it('moves on writes to users, grants, facilities, brands, retailers and connections', async () => {
    const userId = (
      await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'viewer@a.test')
        .executeTakeFirstOrThrow()
    ).id;
    const writes: [string, () => Promise<unknown>][] = [
      [
        'user email',
        () => db.updateTable('users').set({ email: 'v@a.test' }).where('id', '=', userId).execute(),
      ],
      [
        'user brand',
        () =>
          db
            .updateTable('users')
            .set({ brand_id: id('b', 1) })
            .execute(),
      ],
      [
        'facility grant added',
        () =>
          db
            .insertInto('user_facilities')
            .values({ user_id: userId, facility_id: id('f', 2) })
            .execute(),
      ],
      ['facility grant removed', () => db.deleteFrom('user_facilities').execute()],
      ['admin grant removed', () => db.deleteFrom('user_admin').execute()],
      ['facility renamed', () => db.updateTable('facilities').set({ name: 'X' }).execute()],
      ['brand renamed', () => db.updateTable('brands').set({ name: 'X' }).execute()],
      ['brand leaves facility', () => db.deleteFrom('brand_facilities').execute()],
      ['retailer renamed', () => db.updateTable('retailers').set({ name: 'X' }).execute()],
      [
        'connection moved to another brand',
        () =>
          db
            .updateTable('connections')
            .set({ brand_id: id('b', 2) })
            .where('id', '=', id('c', 1))
            .execute(),
      ],
      [
        'connection removed',
        () => db.deleteFrom('connections').where('id', '=', id('c', 1)).execute(),
      ],
      ['user removed', () => db.deleteFrom('users').where('id', '=', userId).execute()],
    ];
    for (const [name, write] of writes) {
      expect(await moves(write), name).toBe(true);
    }
  });

  it('moves inside a transaction that is rolled back (one needless reload, never a stale answer)', async () => {
    const before = await authDataVersion(db);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('user_facilities').execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await authDataVersion(db)).not.toBe(before);
    expect((await db.selectFrom('user_facilities').selectAll().execute()).length).toBeGreaterThan(
      0,
    );
  });

  it('does not move on writes that change no cached data (control numbers, password hashes, deliveries)', async () => {
    expect(
      await moves(() =>
        db
          .updateTable('connections')
          .set((eb) => ({ interchange_counter: eb('interchange_counter', '+', 1) }))
          .execute(),
      ),
    ).toBe(false);
    expect(await moves(() => db.updateTable('users').set({ password_hash: 'x' }).execute())).toBe(
      false,
    );
    expect(await moves(() => db.deleteFrom('sign_in_failures').execute())).toBe(false);
  });
});

describe('cachedAuthData', () => {
  it('loads once while nothing changes, and again after a change', async () => {
    let loads = 0;
    const load = async () => ++loads;
    expect(await cachedAuthData(db, 'k', load)).toBe(1);
    expect(await cachedAuthData(db, 'k', load)).toBe(1);
    await db.updateTable('brands').set({ name: 'Y' }).execute();
    expect(await cachedAuthData(db, 'k', load)).toBe(2);
    expect(await cachedAuthData(db, 'k', load)).toBe(2);
  });

  it('keys are separate', async () => {
    expect(await cachedAuthData(db, 'a', async () => 'A')).toBe('A');
    expect(await cachedAuthData(db, 'b', async () => 'B')).toBe('B');
    expect(await cachedAuthData(db, 'a', async () => 'other')).toBe('A');
  });

  it('does not keep a value whose load raced with a write', async () => {
    let loads = 0;
    const racing = async () => {
      loads += 1;
      // A grant changes while this load runs: its answer may predate the change.
      await db.deleteFrom('user_admin').execute();
      return 'maybe stale';
    };
    expect(await cachedAuthData(db, 'k', racing)).toBe('maybe stale');
    expect(await cachedAuthData(db, 'k', async () => 'fresh')).toBe('fresh');
    expect(loads).toBe(1);
  });

  it('a load waiting behind a transaction that changes grants reads the committed rows', async () => {
    // Warm the cache with the current grants.
    const grants = () =>
      cachedAuthData(db, 'grants', () =>
        db.selectFrom('user_facilities').select('facility_id').execute(),
      );
    const before = (await grants()).length;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.deleteFrom('user_facilities').execute();
      await held; // the transaction stays open while a request comes in
    });
    await new Promise((resolve) => setImmediate(resolve));
    const during = grants(); // version moved: reloads, and Kysely waits for the transaction
    release();
    await transaction;
    expect(before).toBeGreaterThan(0);
    expect(await during).toEqual([]);
    expect(await grants()).toEqual([]);
  });

  it('does not cache at all on a database without the version (opened elsewhere)', async () => {
    const plain = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SQLite(':memory:') }),
    });
    try {
      let loads = 0;
      await cachedAuthData(plain, 'k', async () => ++loads);
      await cachedAuthData(plain, 'k', async () => ++loads);
      expect(loads).toBe(2);
      await sql`select 1`.execute(plain);
    } finally {
      await plain.destroy();
    }
  });
});
