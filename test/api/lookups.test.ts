import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSeedBundle } from '../../src/server/seed/seed';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, TEST_PASSWORD, type TestService } from '../helpers/service';
import { expectError } from './envelope';
import { describeEngines } from '../helpers/engines';

describeEngines('lookups', (engine) => {
  const USERS = ['admin@a.test', 'brand1@a.test', 'brand2@b.test', 'viewer@a.test'] as const;
  type User = (typeof USERS)[number];

  let svc: TestService;
  const tokens = {} as Record<User, string>;

  beforeAll(async () => {
    svc = await createTestService({ seed: baseBundle(), engine });
    for (const email of USERS) tokens[email] = await svc.login(email);
  });
  afterAll(async () => {
    await svc?.close();
  });

  const get = (user: User, url: string) =>
    svc.app.inject({ method: 'GET', url, headers: { authorization: tokens[user] } });

  const ALPHA = { id: id('f', 1), name: 'Alpha DC', external_facility_code: 'ALP' };
  const BRAVO = { id: id('f', 2), name: 'Bravo DC', external_facility_code: 'BRV' };
  const CHARLIE = { id: id('f', 3), name: 'Charlie DC', external_facility_code: 'CHL' };
  const BRAND_ONE = { brand_id: id('b', 1), name: 'Brand One', external_brand_code: 'B1' };
  const BRAND_TWO = { brand_id: id('b', 2), name: 'Brand Two', external_brand_code: null };
  const RETAILER_ONE = { retailer_id: id('r', 1), name: 'Retailer One' };
  const RETAILER_TWO = { retailer_id: id('r', 2), name: 'Retailer Two' };
  const RETAILER_THREE = { retailer_id: id('r', 3), name: 'Retailer Three' };
  const UNKNOWN = '0f000000-0000-4000-8000-0000000000ff';

  function expectSuccess(response: Awaited<ReturnType<typeof get>>, message: string) {
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'message']);
    expect(body.message).toBe(message);
    expect(Array.isArray(body.data)).toBe(true);
    return body.data as Record<string, unknown>[];
  }

  describe('17. GET /api/user-facilities/v1/facilities', () => {
    const facilities = async (user: User) =>
      expectSuccess(await get(user, '/api/user-facilities/v1/facilities'), 'Facilities fetched');

    it('admin@a.test sees Alpha and Bravo, sorted by name, with exactly id, name, external_facility_code', async () => {
      const data = await facilities('admin@a.test');
      expect(data).toEqual([ALPHA, BRAVO]);
      for (const facility of data) {
        expect(Object.keys(facility).sort()).toEqual(['external_facility_code', 'id', 'name']);
      }
    });

    it('brand1@a.test sees Alpha and Charlie, not Bravo (brand 1 does not work at Bravo)', async () => {
      expect(await facilities('brand1@a.test')).toEqual([ALPHA, CHARLIE]);
    });

    it('brand2@b.test sees only Charlie', async () => {
      expect(await facilities('brand2@b.test')).toEqual([CHARLIE]);
    });

    it('viewer@a.test sees only Alpha', async () => {
      expect(await facilities('viewer@a.test')).toEqual([ALPHA]);
    });

    it('the order is by name, not by id or insertion', async () => {
      // Rename so that name order and id order disagree.
      await svc.ctx.db
        .updateTable('facilities')
        .set({ name: 'Zulu DC' })
        .where('id', '=', id('f', 1))
        .execute();
      try {
        expect((await facilities('admin@a.test')).map((f) => f.name)).toEqual([
          'Bravo DC',
          'Zulu DC',
        ]);
      } finally {
        await svc.ctx.db
          .updateTable('facilities')
          .set({ name: 'Alpha DC' })
          .where('id', '=', id('f', 1))
          .execute();
      }
    });

    it('a user with no facilities gets an empty list, not an error', async () => {
      await importSeedBundle(svc.ctx.db, {
        users: [{ email: 'nobody@a.test', password: TEST_PASSWORD, facility_ids: [] }],
      });
      const token = await svc.login('nobody@a.test');
      const response = await svc.app.inject({
        method: 'GET',
        url: '/api/user-facilities/v1/facilities',
        headers: { authorization: token },
      });
      expect(expectSuccess(response, 'Facilities fetched')).toEqual([]);
    });
  });

  describe('19. GET /api/brand/v1/facility/{facility_id}', () => {
    const brands = async (user: User, facilityId: string) =>
      expectSuccess(
        await get(user, `/api/brand/v1/facility/${facilityId}`),
        'Brand info retrieved successfully',
      );
    const noBrands = async (user: User, facilityId: string) =>
      expectError(
        await get(user, `/api/brand/v1/facility/${facilityId}`),
        404,
        'NO_BRANDS_FOUND',
        'No brands found',
      );

    it('a brand-less user sees every brand working at the facility, sorted by name, null code kept', async () => {
      const response = await get('admin@a.test', `/api/brand/v1/facility/${id('f', 1)}`);
      const data = expectSuccess(response, 'Brand info retrieved successfully');
      expect(data).toEqual([BRAND_ONE, BRAND_TWO]);
      for (const brand of data) {
        expect(Object.keys(brand).sort()).toEqual(['brand_id', 'external_brand_code', 'name']);
      }
      expect(response.body).toContain('"external_brand_code":null');
    });

    it('viewer@a.test (brand-less, Alpha only) sees both brands at Alpha', async () => {
      expect(await brands('viewer@a.test', id('f', 1))).toEqual([BRAND_ONE, BRAND_TWO]);
    });

    it('a brand user is narrowed to its own brand', async () => {
      expect(await brands('brand1@a.test', id('f', 1))).toEqual([BRAND_ONE]);
      expect(await brands('brand1@a.test', id('f', 3))).toEqual([BRAND_ONE]);
      const twoAtCharlie = await get('brand2@b.test', `/api/brand/v1/facility/${id('f', 3)}`);
      expect(expectSuccess(twoAtCharlie, 'Brand info retrieved successfully')).toEqual([BRAND_TWO]);
      expect(twoAtCharlie.body).toContain('"external_brand_code":null');
    });

    it('a facility with no brands -> 404 No brands found / NO_BRANDS_FOUND', async () => {
      await noBrands('admin@a.test', id('f', 2));
    });

    it('an unknown facility id -> 404 NO_BRANDS_FOUND', async () => {
      await noBrands('admin@a.test', UNKNOWN);
    });

    it("another tenant's facility answers as if it did not exist", async () => {
      await noBrands('brand2@b.test', id('f', 1));
      await noBrands('admin@a.test', id('f', 3));
      await noBrands('viewer@a.test', id('f', 2));
      // brand1@a.test lists Bravo among its facility_ids, but brand 1 does not work there.
      await noBrands('brand1@a.test', id('f', 2));
      // The answers are identical to an unknown id's.
      const foreign = await get('brand2@b.test', `/api/brand/v1/facility/${id('f', 1)}`);
      const unknown = await get('brand2@b.test', `/api/brand/v1/facility/${UNKNOWN}`);
      expect(foreign.body).toBe(unknown.body);
    });

    it.each(['not-a-uuid', '123', 'ALP', `${id('f', 1)}x`, `{${id('f', 1)}}`])(
      'non-UUID facility id %s -> 400 Invalid facility ID format / INVALID_REQUEST',
      async (bad) => {
        expectError(
          await get('admin@a.test', `/api/brand/v1/facility/${encodeURIComponent(bad)}`),
          400,
          'INVALID_REQUEST',
          'Invalid facility ID format',
        );
      },
    );
  });

  describe('18. GET /api/retailer/v1/facility/{facility_id}', () => {
    const url = (facilityId: string, brandId?: string) =>
      `/api/retailer/v1/facility/${facilityId}${brandId === undefined ? '' : `?brand_id=${brandId}`}`;
    const retailers = async (user: User, facilityId: string, brandId?: string) =>
      expectSuccess(
        await get(user, url(facilityId, brandId)),
        'Retailer info retrieved successfully',
      );
    const noRetailers = async (user: User, facilityId: string, brandId?: string) =>
      expectError(
        await get(user, url(facilityId, brandId)),
        404,
        'NOT_FOUND',
        'No retailers found',
      );

    it("Alpha: the retailers connected to Alpha's brands through org 1, sorted by name, fields exactly retailer_id, name", async () => {
      const data = await retailers('admin@a.test', id('f', 1));
      expect(data).toEqual([RETAILER_ONE, RETAILER_TWO]);
      for (const retailer of data)
        expect(Object.keys(retailer).sort()).toEqual(['name', 'retailer_id']);
    });

    it('?brand_id= filters to that brand', async () => {
      expect(await retailers('admin@a.test', id('f', 1), id('b', 1))).toEqual([RETAILER_ONE]);
      expect(await retailers('admin@a.test', id('f', 1), id('b', 2))).toEqual([RETAILER_TWO]);
    });

    it("a brand user sees only its brand's retailers", async () => {
      expect(await retailers('brand1@a.test', id('f', 1))).toEqual([RETAILER_ONE]);
      expect(await retailers('brand1@a.test', id('f', 1), id('b', 1))).toEqual([RETAILER_ONE]);
    });

    it("the connection must be in the facility's organisation", async () => {
      // Brand 1 is connected to Retailer Three through org 2 (Charlie), not through org 1 (Alpha).
      expect(await retailers('brand1@a.test', id('f', 3))).toEqual([RETAILER_THREE]);
      expect((await retailers('admin@a.test', id('f', 1))).map((r) => r.name)).not.toContain(
        'Retailer Three',
      );
    });

    it("another tenant's facility -> 404 No retailers found / NOT_FOUND", async () => {
      await noRetailers('brand2@b.test', id('f', 1));
      await noRetailers('brand2@b.test', id('f', 1), id('b', 2));
      await noRetailers('admin@a.test', id('f', 3));
      await noRetailers('admin@a.test', id('f', 3), id('b', 1));
    });

    it('a brand with no connection there -> 404', async () => {
      // Brand 2 works at Charlie but has no connection in org 2.
      await noRetailers('brand2@b.test', id('f', 3));
      await noRetailers('brand2@b.test', id('f', 3), id('b', 2));
    });

    it('a facility whose organisation has connections but where no brand works -> 404', async () => {
      // Bravo is in org 1 (which has connections for brands 1 and 2) but no brand works at Bravo.
      await noRetailers('admin@a.test', id('f', 2));
      await noRetailers('admin@a.test', id('f', 2), id('b', 1));
    });

    it('a brand_id not visible to the user -> 404, like an unknown one', async () => {
      await noRetailers('brand1@a.test', id('f', 1), id('b', 2));
      await noRetailers('admin@a.test', id('f', 1), '0b000000-0000-4000-8000-0000000000ff');
      const hidden = await get('brand1@a.test', url(id('f', 1), id('b', 2)));
      const unknown = await get(
        'brand1@a.test',
        url(id('f', 1), '0b000000-0000-4000-8000-0000000000ff'),
      );
      expect(hidden.body).toBe(unknown.body);
    });

    it('an unknown facility -> 404', async () => {
      await noRetailers('admin@a.test', UNKNOWN);
    });

    it.each(['not-a-uuid', '', '123', `${id('b', 1)}x`])(
      'a bad brand_id (%s) -> 400 INVALID_REQUEST',
      async (bad) => {
        expectError(
          await get('admin@a.test', url(id('f', 1), encodeURIComponent(bad))),
          400,
          'INVALID_REQUEST',
          'Invalid brand ID format',
        );
      },
    );

    it('a repeated brand_id -> 400 INVALID_REQUEST', async () => {
      const response = await get(
        'admin@a.test',
        `${url(id('f', 1), id('b', 1))}&brand_id=${id('b', 2)}`,
      );
      expectError(response, 400, 'INVALID_REQUEST');
    });

    it('a non-UUID facility id -> 400 Invalid facility ID format', async () => {
      expectError(
        await get('admin@a.test', url('not-a-uuid')),
        400,
        'INVALID_REQUEST',
        'Invalid facility ID format',
      );
      expectError(
        await get('admin@a.test', url('not-a-uuid', id('b', 1))),
        400,
        'INVALID_REQUEST',
        'Invalid facility ID format',
      );
    });

    it('a retailer connected to two brands (or twice) is listed once', async () => {
      // A second connection to Retailer One, for brand 2, in org 1; no users, so no hashing.
      await importSeedBundle(svc.ctx.db, {
        connections: [
          {
            id: id('c', 9),
            organization_id: id('o', 1),
            brand_id: id('b', 2),
            retailer_id: id('r', 1),
            kind: 'DIRECT_API',
            enabled: true,
            transport: { type: 'file', directory: 'outbox/r1-b2' },
          },
        ],
      });
      try {
        expect(await retailers('admin@a.test', id('f', 1))).toEqual([RETAILER_ONE, RETAILER_TWO]);
        expect(await retailers('admin@a.test', id('f', 1), id('b', 2))).toEqual([
          RETAILER_ONE,
          RETAILER_TWO,
        ]);
        // brand 1's view does not change.
        expect(await retailers('brand1@a.test', id('f', 1))).toEqual([RETAILER_ONE]);
      } finally {
        await svc.ctx.db.deleteFrom('connections').where('id', '=', id('c', 9)).execute();
      }
    });
  });
});
