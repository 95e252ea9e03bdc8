/**
 * The request path caches verified tokens, the signed-in user and the lookups (issue 11). These
 * tests prove every cache gives way at once when users or grants change, whatever the write path.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importSeedBundle } from '../../src/server/seed/seed';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { expectError } from './envelope';

let svc: TestService;
beforeEach(async () => {
  svc = await createTestService({ seed: baseBundle() });
});
afterEach(async () => {
  await svc?.close();
});

const get = (authorization: string, url: string) =>
  svc.app.inject({ method: 'GET', url, headers: { authorization } });

const FACILITIES = '/api/user-facilities/v1/facilities';
const brandsAt = (facility: number) => `/api/brand/v1/facility/${id('f', facility)}`;
const retailersAt = (facility: number) => `/api/retailer/v1/facility/${id('f', facility)}`;

async function facilityIds(authorization: string): Promise<string[]> {
  const response = await get(authorization, FACILITIES);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data as { id: string }[]).map((f) => f.id);
}

type Bundle = ReturnType<typeof baseBundle>;
/** The base bundle with one user's facility grants replaced. */
function withFacilities(email: string, facilityIds: string[]): Bundle {
  const bundle = baseBundle();
  const user = bundle.users.find((u) => u.email === email)!;
  user.facility_ids = facilityIds;
  user.admin = user.admin.filter((pair) => facilityIds.includes(pair.facility_id));
  return bundle;
}

const importBundle = (bundle: unknown) =>
  importSeedBundle(svc.ctx.db, bundle, { passwordCost: svc.ctx.passwordCost });

describe('a removed grant refuses the next request', () => {
  it('re-importing the bundle without facility 2 hides it from the list, brands and retailers at once', async () => {
    const admin = await svc.login('admin@a.test');
    // Warm every cache first, twice, so a stale entry would be served.
    for (let i = 0; i < 2; i++) {
      expect(await facilityIds(admin)).toEqual([id('f', 1), id('f', 2)]);
      expect((await get(admin, brandsAt(1))).statusCode).toBe(200);
      expect((await get(admin, retailersAt(1))).statusCode).toBe(200);
    }

    await importBundle(withFacilities('admin@a.test', [id('f', 2)]));

    expect(await facilityIds(admin)).toEqual([id('f', 2)]);
    expectError(await get(admin, brandsAt(1)), 404, 'NO_BRANDS_FOUND', 'No brands found');
    expectError(await get(admin, retailersAt(1)), 404, 'NOT_FOUND', 'No retailers found');
  });

  it('a grant deleted by a direct write (no domain code) is seen at once too', async () => {
    const viewer = await svc.login('viewer@a.test');
    expect(await facilityIds(viewer)).toEqual([id('f', 1)]);
    const user = await svc.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'viewer@a.test')
      .executeTakeFirstOrThrow();
    await svc.ctx.db.deleteFrom('user_facilities').where('user_id', '=', user.id).execute();
    expect(await facilityIds(viewer)).toEqual([]);
  });

  it('a brand that stops working at a facility disappears from the brand user view at once', async () => {
    const brand1 = await svc.login('brand1@a.test');
    expect(await facilityIds(brand1)).toEqual([id('f', 1), id('f', 3)]);
    await svc.ctx.db
      .deleteFrom('brand_facilities')
      .where('brand_id', '=', id('b', 1))
      .where('facility_id', '=', id('f', 3))
      .execute();
    expect(await facilityIds(brand1)).toEqual([id('f', 1)]);
    expectError(await get(brand1, brandsAt(3)), 404, 'NO_BRANDS_FOUND', 'No brands found');
  });

  it('a removed connection drops its retailer at once', async () => {
    const admin = await svc.login('admin@a.test');
    const before = (await get(admin, retailersAt(1))).json().data as { retailer_id: string }[];
    expect(before.map((r) => r.retailer_id)).toContain(id('r', 2));
    await svc.ctx.db.deleteFrom('connections').where('id', '=', id('c', 2)).execute();
    const after = (await get(admin, retailersAt(1))).json().data as { retailer_id: string }[];
    expect(after.map((r) => r.retailer_id)).not.toContain(id('r', 2));
  });
});

describe('a seed import that changes grants is seen at once', () => {
  it('a facility added to a user shows on the very next request', async () => {
    const viewer = await svc.login('viewer@a.test');
    expect(await facilityIds(viewer)).toEqual([id('f', 1)]);
    expectError(await get(viewer, brandsAt(2)), 404, 'NO_BRANDS_FOUND', 'No brands found');
    await importBundle(withFacilities('viewer@a.test', [id('f', 1), id('f', 3)]));
    expect(await facilityIds(viewer)).toEqual([id('f', 1), id('f', 3)]);
    expect((await get(viewer, brandsAt(3))).statusCode).toBe(200);
  });

  it('a user whose credentials start acting for a brand sees only that brand at once', async () => {
    const admin = await svc.login('admin@a.test');
    const brands = async () =>
      ((await get(admin, brandsAt(1))).json().data as { brand_id: string }[]).map(
        (b) => b.brand_id,
      );
    expect(await brands()).toEqual([id('b', 1), id('b', 2)]);
    const bundle = baseBundle();
    bundle.users.find((u) => u.email === 'admin@a.test')!.brand_id = id('b', 2);
    await importBundle(bundle);
    expect(await brands()).toEqual([id('b', 2)]);
  });
});

describe('the cache never mixes users', () => {
  it('two users of the same brand with grants in different organisations each see their own answer, cached or not', async () => {
    // brand1@a.test: brand 1 at facilities 1 (org 1) and 3 (org 2); a second brand-1 user only
    // at facility 3 (org 2).
    const bundle = baseBundle();
    bundle.users.push({
      email: 'brand1-org2@b.test',
      password: bundle.users[0]!.password,
      brand_id: id('b', 1),
      facility_ids: [id('f', 3)],
      admin: [],
    });
    await importBundle(bundle);
    const wide = await svc.login('brand1@a.test');
    const narrow = await svc.login('brand1-org2@b.test');
    for (let round = 0; round < 2; round++) {
      expect(await facilityIds(wide)).toEqual([id('f', 1), id('f', 3)]);
      expect(await facilityIds(narrow)).toEqual([id('f', 3)]);
      expect((await get(wide, brandsAt(1))).statusCode).toBe(200);
      expectError(await get(narrow, brandsAt(1)), 404, 'NO_BRANDS_FOUND', 'No brands found');
      expectError(await get(narrow, retailersAt(1)), 404, 'NOT_FOUND', 'No retailers found');
      const retailers = (await get(narrow, retailersAt(3))).json().data as {
        retailer_id: string;
      }[];
      expect(retailers.map((r) => r.retailer_id)).toEqual([id('r', 3)]);
    }
  });
});

describe('a deleted user', () => {
  it('is refused on the next request with the token it already used', async () => {
    const viewer = await svc.login('viewer@a.test');
    expect(await facilityIds(viewer)).toEqual([id('f', 1)]);
    await svc.ctx.db.deleteFrom('users').where('email', '=', 'viewer@a.test').execute();
    expectError(await get(viewer, FACILITIES), 401, 'UNAUTHORIZED', 'Authentication failed');
  });
});

describe('parallel requests while grants change', () => {
  it('no request sent after the import committed shows the revoked facility (50+ in flight)', async () => {
    const admin = await svc.login('admin@a.test');
    expect(await facilityIds(admin)).toEqual([id('f', 1), id('f', 2)]);

    let committed = false;
    const revoke = importBundle(withFacilities('admin@a.test', [id('f', 1)])).then(() => {
      committed = true;
    });
    const inFlight: Promise<{ sentAfterCommit: boolean; ids: string[]; brands: number }>[] = [];
    const send = () => {
      const sentAfterCommit = committed;
      inFlight.push(
        Promise.all([facilityIds(admin), get(admin, brandsAt(2))]).then(([ids, brands]) => ({
          sentAfterCommit,
          ids,
          brands: brands.statusCode,
        })),
      );
    };
    // Keep requests going while the import runs (it hashes passwords, then writes in one
    // transaction), then send 50 more at once after it committed.
    while (!committed) {
      send();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await revoke;
    for (let i = 0; i < 50; i++) send();
    const results = await Promise.all(inFlight);

    const after = results.filter((r) => r.sentAfterCommit);
    expect(after.length).toBeGreaterThanOrEqual(50);
    for (const result of after) {
      expect(result.ids).toEqual([id('f', 1)]);
      expect(result.brands).toBe(404);
    }
    // Before the commit each answer is one state or the other, never a mix within one list.
    for (const result of results.filter((r) => !r.sentAfterCommit)) {
      expect([[id('f', 1), id('f', 2)], [id('f', 1)]]).toContainEqual(result.ids);
    }
  });
});
