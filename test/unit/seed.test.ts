import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import demoWorkspace from '../../resources/demo-workspace.json';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/database';
import type { ServiceContext } from '../../src/server/core/context';
import { issueToken } from '../../src/server/access/auth';
import {
  DEMO_EMAIL,
  DEMO_PASSWORD,
  demoSignInUnchanged,
  importDemoWorkspace,
} from '../../src/server/seed/demo';
import { verifyPassword } from '../../src/server/access/passwords';
import { importSeedBundle, parseSeedBundle, SeedError } from '../../src/server/seed/seed';
import { baseBundle, id } from '../helpers/fixtures';
import { TEST_PASSWORD, TEST_PASSWORD_COST } from '../helpers/service';

/** Hashes at the tests' low scrypt cost; test/api/password-cost.test.ts covers the real one. */
const cheap = { passwordCost: TEST_PASSWORD_COST };

const TABLES = [
  'organizations',
  'facilities',
  'brands',
  'retailers',
  'brand_facilities',
  'users',
  'user_facilities',
  'user_admin',
  'connections',
] as const;

/** Every row of every seeded table, in a stable order: "the database exactly as before". */
function snapshot(database: OpenedDatabase) {
  return Object.fromEntries(
    TABLES.map((table) => [
      table,
      database.sqlite.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all(),
    ]),
  );
}

function counts(database: OpenedDatabase) {
  return Object.fromEntries(
    TABLES.map((table) => [
      table,
      (database.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
    ]),
  );
}

/** Runs an import that must fail; returns the SeedError's message. */
async function seedErrorOf(database: OpenedDatabase, bundle: unknown): Promise<string> {
  const error = await importSeedBundle(database.db, bundle, cheap).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SeedError);
  return (error as SeedError).message;
}

describe('importSeedBundle: the base bundle', () => {
  let database: OpenedDatabase;
  beforeAll(async () => {
    database = await openDatabase(':memory:');
  });
  afterAll(async () => {
    await database?.close();
  });

  it('imports every section and reports the counts', async () => {
    const summary = await importSeedBundle(database.db, baseBundle(), cheap);
    expect(summary).toEqual({
      organizations: 2,
      facilities: 3,
      brands: 2,
      retailers: 3,
      brand_facilities: 4,
      users: 4,
      connections: 3,
    });
    expect(counts(database)).toEqual({
      organizations: 2,
      facilities: 3,
      brands: 2,
      retailers: 3,
      brand_facilities: 4,
      users: 4,
      user_facilities: 2 + 3 + 1 + 1,
      user_admin: 1 + 2 + 1 + 0,
      connections: 3,
    });
  });

  it('maps bundle fields onto rows (brand_id -> id, null brand code, connection JSON)', async () => {
    const brands = await database.db.selectFrom('brands').selectAll().orderBy('id').execute();
    expect(brands).toEqual([
      { id: id('b', 1), name: 'Brand One', external_brand_code: 'B1', gs1_company_prefix: null },
      { id: id('b', 2), name: 'Brand Two', external_brand_code: null, gs1_company_prefix: null },
    ]);
    const connection = await database.db
      .selectFrom('connections')
      .selectAll()
      .where('id', '=', id('c', 1))
      .executeTakeFirstOrThrow();
    expect(connection).toMatchObject({
      organization_id: id('o', 1),
      brand_id: id('b', 1),
      retailer_id: id('r', 1),
      kind: 'EDI_846',
      enabled: 1,
    });
    expect(JSON.parse(connection.transport_json)).toEqual({
      type: 'file',
      directory: 'outbox/r1',
    });
    expect(JSON.parse(connection.edi_json!)).toMatchObject({ sender_id: 'SENDER1' });
    const direct = await database.db
      .selectFrom('connections')
      .select('edi_json')
      .where('id', '=', id('c', 2))
      .executeTakeFirstOrThrow();
    expect(direct.edi_json).toBeNull();
  });

  it('hashes passwords (scrypt) and grants what the bundle says', async () => {
    const users = await database.db.selectFrom('users').selectAll().execute();
    for (const user of users) {
      expect(user.password_hash).toMatch(/^scrypt\$/);
      expect(user.password_hash).not.toContain(TEST_PASSWORD);
      expect(await verifyPassword(TEST_PASSWORD, user.password_hash)).toBe(true);
    }
    const brand1 = users.find((u) => u.email === 'brand1@a.test')!;
    expect(brand1.brand_id).toBe(id('b', 1));
    const facilities = await database.db
      .selectFrom('user_facilities')
      .select('facility_id')
      .where('user_id', '=', brand1.id)
      .orderBy('facility_id')
      .execute();
    expect(facilities.map((f) => f.facility_id)).toEqual([id('f', 1), id('f', 2), id('f', 3)]);
  });

  it('importing the same bundle again changes nothing (rows, user ids, password hashes)', async () => {
    const before = snapshot(database);
    await importSeedBundle(database.db, baseBundle(), cheap);
    expect(snapshot(database)).toEqual(before);
    await importSeedBundle(database.db, baseBundle(), cheap);
    expect(snapshot(database)).toEqual(before);
  });

  it('re-importing keeps the EDI control-number counters of existing connections', async () => {
    await database.db
      .updateTable('connections')
      .set({ interchange_counter: 41, group_counter: 7 })
      .where('id', '=', id('c', 1))
      .execute();
    await importSeedBundle(database.db, baseBundle(), cheap);
    const row = await database.db
      .selectFrom('connections')
      .select(['interchange_counter', 'group_counter'])
      .where('id', '=', id('c', 1))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ interchange_counter: 41, group_counter: 7 });
  });

  it('a changed entry is updated in place (upsert by id), not duplicated', async () => {
    const before = counts(database);
    const bundle = baseBundle();
    bundle.facilities[0]!.name = 'Alpha DC (renamed)';
    await importSeedBundle(database.db, { facilities: bundle.facilities.slice(0, 1) }, cheap);
    expect(counts(database)).toEqual(before);
    const row = await database.db
      .selectFrom('facilities')
      .select('name')
      .where('id', '=', id('f', 1))
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Alpha DC (renamed)');
    await importSeedBundle(database.db, baseBundle(), cheap);
  });

  it('a user re-imported with a new password gets a new hash; emails match case-insensitively', async () => {
    const before = await database.db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where('email', '=', 'viewer@a.test')
      .executeTakeFirstOrThrow();
    await importSeedBundle(
      database.db,
      {
        users: [{ email: 'Viewer@A.test', password: 'a-new-password', facility_ids: [id('f', 1)] }],
      },
      cheap,
    );
    const after = await database.db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where('email', '=', 'viewer@a.test')
      .executeTakeFirstOrThrow();
    expect(after.id).toBe(before.id);
    expect(after.password_hash).not.toBe(before.password_hash);
    expect(await verifyPassword('a-new-password', after.password_hash)).toBe(true);
    expect(counts(database).users).toBe(4);
    await importSeedBundle(database.db, baseBundle(), cheap);
  });

  it('an empty bundle is a no-op', async () => {
    const before = snapshot(database);
    expect(await importSeedBundle(database.db, {}, cheap)).toEqual({});
    expect(snapshot(database)).toEqual(before);
  });
});

describe('importSeedBundle: all or nothing, errors name the entry', () => {
  let database: OpenedDatabase;
  let before: ReturnType<typeof snapshot>;
  beforeAll(async () => {
    database = await openDatabase(':memory:');
    await importSeedBundle(database.db, baseBundle(), cheap);
    before = snapshot(database);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A bundle that adds new rows in its early sections, so a partial import would show. */
  function withNewRows() {
    return {
      organizations: [{ id: id('o', 7), name: 'Org Seven' }],
      facilities: [
        {
          id: id('f', 7),
          organization_id: id('o', 7),
          name: 'Golf DC',
          external_facility_code: 'GLF',
        },
      ] as Record<string, unknown>[],
      brands: [{ brand_id: id('b', 7), name: 'Brand Seven' }],
      retailers: [{ retailer_id: id('r', 7), name: 'Retailer Seven' }],
    };
  }

  it('a bad UUID', async () => {
    const bundle = withNewRows();
    bundle.facilities.push({
      id: 'not-a-uuid',
      organization_id: id('o', 7),
      name: 'Hotel DC',
      external_facility_code: 'HTL',
    });
    const message = await seedErrorOf(database, bundle);
    expect(message).toContain('facilities[1].id');
    expect(snapshot(database)).toEqual(before);
  });

  it('a dangling reference (facility with an unknown organization_id)', async () => {
    const bundle = withNewRows();
    bundle.facilities.push({
      id: id('f', 8),
      organization_id: id('o', 99),
      name: 'Hotel DC',
      external_facility_code: 'HTL',
    });
    const message = await seedErrorOf(database, bundle);
    expect(message).toContain('facilities[1].organization_id');
    expect(message).toContain(id('o', 99));
    expect(snapshot(database)).toEqual(before);
  });

  it('a dangling reference late in the bundle rolls back every earlier section, users included', async () => {
    const bundle = {
      ...withNewRows(),
      users: [
        {
          email: 'late@a.test',
          password: TEST_PASSWORD,
          facility_ids: [id('f', 7)],
        },
      ],
      connections: [
        {
          id: id('c', 7),
          organization_id: id('o', 7),
          brand_id: id('b', 7),
          retailer_id: id('r', 99),
          kind: 'DIRECT_API',
          transport: { type: 'file', directory: 'outbox/x' },
        },
      ],
    };
    const message = await seedErrorOf(database, bundle);
    expect(message).toContain('connections[0].retailer_id');
    expect(snapshot(database)).toEqual(before);
  });

  it('a dangling user grant names the nested entry', async () => {
    const message = await seedErrorOf(database, {
      users: [
        { email: 'ok@a.test', password: TEST_PASSWORD, facility_ids: [id('f', 1)] },
        {
          email: 'bad@a.test',
          password: TEST_PASSWORD,
          facility_ids: [id('f', 1)],
          admin: [{ brand_id: id('b', 1), facility_id: id('f', 99) }],
        },
      ],
    });
    expect(message).toContain('users[1].admin[0].facility_id');
    expect(snapshot(database)).toEqual(before);
  });

  it('a duplicate id within a section', async () => {
    const bundle = withNewRows();
    bundle.facilities.push({
      id: id('f', 7),
      organization_id: id('o', 7),
      name: 'Golf DC again',
      external_facility_code: 'GL2',
    });
    const message = await seedErrorOf(database, bundle);
    expect(message).toContain('facilities[1].id');
    expect(message).toMatch(/duplicate/i);
    expect(message).toContain('facilities[0]');
    expect(snapshot(database)).toEqual(before);
  });

  it('duplicate brand ids and user emails (case-insensitive) are caught too', async () => {
    const brands = await seedErrorOf(database, {
      brands: [
        { brand_id: id('b', 7), name: 'A' },
        { brand_id: id('b', 7), name: 'B' },
      ],
    });
    expect(brands).toContain('brands[1].brand_id');
    const users = await seedErrorOf(database, {
      users: [
        { email: 'twin@a.test', password: TEST_PASSWORD },
        { email: 'TWIN@a.test', password: TEST_PASSWORD },
      ],
    });
    expect(users).toContain('users[1].email');
    expect(snapshot(database)).toEqual(before);
  });

  it('an unknown key inside an entry', async () => {
    const bundle = withNewRows();
    bundle.facilities.push({
      id: id('f', 8),
      organization_id: id('o', 7),
      name: 'Hotel DC',
      external_facility_code: 'HTL',
      colour: 'blue',
    });
    const message = await seedErrorOf(database, bundle);
    expect(message).toContain('facilities[1]');
    expect(message).toContain('colour');
    expect(snapshot(database)).toEqual(before);
  });

  it('an unknown top-level section', async () => {
    const message = await seedErrorOf(database, { ...withNewRows(), warehouses: [] });
    expect(message).toContain('warehouses');
    expect(snapshot(database)).toEqual(before);
  });

  it('a missing required field and a wrong type name the field', async () => {
    const bundle = withNewRows();
    bundle.facilities.push({ id: id('f', 8), organization_id: id('o', 7), name: 'Hotel DC' });
    expect(await seedErrorOf(database, bundle)).toContain('facilities[1].external_facility_code');
    const wrongType = await seedErrorOf(database, {
      retailers: [
        { retailer_id: id('r', 7), name: 'ok' },
        { retailer_id: id('r', 8), name: 42 },
      ],
    });
    expect(wrongType).toContain('retailers[1].name');
    expect(snapshot(database)).toEqual(before);
  });

  it('an EDI_846 connection without edi settings names the connection', async () => {
    const message = await seedErrorOf(database, {
      connections: [
        {
          id: id('c', 7),
          organization_id: id('o', 1),
          brand_id: id('b', 1),
          retailer_id: id('r', 1),
          kind: 'EDI_846',
          transport: { type: 'file', directory: 'outbox/x' },
        },
      ],
    });
    expect(message).toContain('connections[0]');
    expect(snapshot(database)).toEqual(before);
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'organizations'],
    ['a section that is not an array', { organizations: { id: id('o', 7) } }],
  ])('a bundle that is %s is refused', async (_name, bundle) => {
    await seedErrorOf(database, bundle);
    expect(snapshot(database)).toEqual(before);
  });

  it('parseSeedBundle alone reports the same entry without touching a database', () => {
    expect(() => parseSeedBundle({ facilities: [{ id: 'x' }] })).toThrow(SeedError);
    expect(() => parseSeedBundle({ facilities: [{ id: 'x' }] })).toThrow(/facilities\[0\]/);
  });
});

describe('the demo workspace', () => {
  let database: OpenedDatabase;
  beforeAll(async () => {
    database = await openDatabase(':memory:');
  });
  afterAll(async () => {
    await database?.close();
  });

  it("meets DESIGN.md's minimum and lets demo@example.com / demo-password sign in", async () => {
    await importDemoWorkspace(database.db, cheap);

    const c = counts(database);
    expect(c.facilities).toBeGreaterThanOrEqual(2);
    expect(c.brands).toBeGreaterThanOrEqual(3);
    expect(c.retailers).toBeGreaterThanOrEqual(4);

    const connections = await database.db.selectFrom('connections').selectAll().execute();
    expect(new Set(connections.map((row) => row.kind))).toEqual(new Set(['EDI_846', 'DIRECT_API']));
    for (const connection of connections) {
      expect(connection.enabled).toBe(1);
      const transport = JSON.parse(connection.transport_json);
      // Writes into the data dir, so the demo works offline.
      expect(transport.type, connection.id).toBe('file');
      expect(transport.directory).not.toMatch(/^\/|^[A-Za-z]:|\.\./);
      if (connection.kind === 'EDI_846') expect(connection.edi_json).not.toBeNull();
    }

    // Every brand works somewhere and every facility has a brand.
    const links = await database.db.selectFrom('brand_facilities').selectAll().execute();
    const brands = await database.db.selectFrom('brands').select('id').execute();
    const facilities = await database.db.selectFrom('facilities').select('id').execute();
    for (const brand of brands) expect(links.some((l) => l.brand_id === brand.id)).toBe(true);
    for (const f of facilities) expect(links.some((l) => l.facility_id === f.id)).toBe(true);

    expect(await demoSignInUnchanged(database.db)).toBe(true);
    const ctx = {
      db: database.db,
      secret: new TextEncoder().encode('demo-test-secret-demo-test-secret!'),
      clock: { now: () => new Date() },
      passwordCost: TEST_PASSWORD_COST,
    } as ServiceContext;
    const token = await issueToken(ctx, DEMO_EMAIL, DEMO_PASSWORD);
    expect(token.token_type).toBe('Bearer');
    const demoUser = await database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', DEMO_EMAIL)
      .executeTakeFirstOrThrow();
    const { payload } = await jwtVerify(token.access_token, ctx.secret);
    expect(payload.sub).toBe(demoUser.id);
    // The demo user sees every facility.
    const own = await database.db
      .selectFrom('user_facilities')
      .select('facility_id')
      .where('user_id', '=', demoUser.id)
      .execute();
    expect(own).toHaveLength(c.facilities!);
  });

  it('importing the demo again changes nothing', async () => {
    const before = snapshot(database);
    await importDemoWorkspace(database.db, cheap);
    expect(snapshot(database)).toEqual(before);
  });

  it('the demo bundle file itself passes validation', () => {
    expect(() => parseSeedBundle(demoWorkspace)).not.toThrow();
  });

  it('demoSignInUnchanged turns false once the demo password is changed', async () => {
    await importSeedBundle(
      database.db,
      {
        users: [{ email: DEMO_EMAIL, password: 'a-private-password' }],
      },
      cheap,
    );
    expect(await demoSignInUnchanged(database.db)).toBe(false);
  });
});
