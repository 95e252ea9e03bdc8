import { describe, expect, it } from 'vitest';
import { importSeedBundle } from '../../src/server/seed/seed';
import { expectError } from '../api/envelope';
import { baseBundle, id } from '../helpers/fixtures';
import { describeEngines } from '../helpers/engines';
import { createTestService, TEST_PASSWORD, TEST_PASSWORD_COST } from '../helpers/service';
import { signedInService } from '../helpers/signed-in';
import { brandOnePrices } from './report-fixtures';

const USERS = [
  'admin@a.test',
  'brand1@a.test',
  'brand2@b.test',
  'viewer@a.test',
  'split@a.test',
  'charlie@b.test',
  'brand2-grant1@a.test',
] as const;
type User = (typeof USERS)[number];

/** Users whose admin grant for brand 1 is not where they see it (Alpha is org 1, Charlie org 2). */
const grantElsewhere = [
  // Sees brand 1 at Alpha (no grant there); its grant for brand 1 is at Charlie, which it does not see.
  { email: 'split@a.test', brand_id: null, facility_ids: [id('f', 1)], grant: id('f', 3) },
  // Sees only Charlie (org 2), with a grant for brand 1 there.
  { email: 'charlie@b.test', brand_id: null, facility_ids: [id('f', 3)], grant: id('f', 3) },
  // A grant for brand 1 at Alpha, but credentials acting for brand 2.
  {
    email: 'brand2-grant1@a.test',
    brand_id: id('b', 2),
    facility_ids: [id('f', 1)],
    grant: id('f', 1),
  },
].map(({ grant, ...user }) => ({
  ...user,
  password: TEST_PASSWORD,
  admin: [{ brand_id: id('b', 1), facility_id: grant }],
}));

describeEngines('billing prices', (engine) => {
  const api = signedInService(USERS, () => {
    const bundle = baseBundle();
    return {
      engine,
      seed: { ...bundle, users: [...bundle.users, ...grantElsewhere], billing: [brandOnePrices()] },
    };
  });

  const prices = (
    user: User | null,
    brand: string,
    method: 'GET' | 'PUT' = 'GET',
    body?: unknown,
  ) =>
    api.svc.app.inject({
      method,
      url: `/api/v1/billing/prices/${brand}`,
      headers: api.headers(user),
      ...(body === undefined ? {} : { payload: body as object }),
    });

  it("reads a brand's prices in dollars, metrics in the interface's order", async () => {
    const response = await prices('viewer@a.test', id('b', 1));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: 'Billing prices retrieved successfully',
      data: {
        brand_id: id('b', 1),
        brand_name: 'Brand One',
        prices: {
          Orders: 0.1,
          Cartons: 0.2,
          'Labels Generated': 0.07,
          'Carton Label Printed - GS1 Label': 0.01,
        },
        actions: [
          { type: 'Carton Workflow', metric: 'Pack', price_dollars: 0.1 },
          { type: 'Pallet Workflow', metric: 'Stretch Wrap', price_dollars: 0.3 },
          { type: 'VAS', metric: 'Ticketing', price_dollars: 0.2 },
        ],
      },
    });
    const none = await prices('viewer@a.test', id('b', 2));
    expect(none.json().data).toMatchObject({ prices: {}, actions: [] });
  });

  it('replaces the whole list for a user with an admin grant for the brand', async () => {
    const body = {
      prices: { Orders: 1.25, Units: 0.05 },
      actions: [{ type: 'VAS', metric: 'Kitting', price_dollars: 0.5 }],
    };
    const response = await prices('brand1@a.test', id('b', 1), 'PUT', body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      message: 'Billing prices updated successfully',
      data: { brand_id: id('b', 1), brand_name: 'Brand One', ...body },
    });
    expect((await prices('admin@a.test', id('b', 1))).json().data).toMatchObject(body);
    // Put back for the other tests.
    const { brand_id: _id, ...original } = brandOnePrices();
    expect((await prices('admin@a.test', id('b', 1), 'PUT', original)).statusCode).toBe(200);
  });

  it('refuses users without the grant, and hides brands the user does not see', async () => {
    const body = { prices: { Orders: 9 } };
    // viewer@a.test sees brand 1 at Alpha but has no admin grant.
    expectError(
      await prices('viewer@a.test', id('b', 1), 'PUT', body),
      403,
      'UNAUTHORIZED',
      'Unauthorized',
    );
    // admin@a.test has a grant for brand 1 only; brand 2 also works at Alpha.
    expectError(
      await prices('admin@a.test', id('b', 2), 'PUT', body),
      403,
      'UNAUTHORIZED',
      'Unauthorized',
    );
    // brand2@b.test has a grant for brand 2 at Charlie, where brand 1 works too: still another brand.
    expectError(await prices('brand2@b.test', id('b', 1)), 404, 'NOT_FOUND', 'Brand not found');
    expectError(
      await prices('brand2@b.test', id('b', 1), 'PUT', body),
      404,
      'NOT_FOUND',
      'Brand not found',
    );
    expectError(await prices('admin@a.test', id('b', 99)), 404, 'NOT_FOUND', 'Brand not found');
    expectError(await prices('admin@a.test', 'not-a-uuid'), 404, 'NOT_FOUND', 'Brand not found');
    expectError(await prices(null, id('b', 1)), 401, 'UNAUTHORIZED', 'Authentication failed');
    expect((await prices('admin@a.test', id('b', 1))).json().data.prices.Orders).toBe(0.1);
  });

  it('counts an admin grant only at a facility the user sees, of the same brand', async () => {
    const body = { prices: { Orders: 3 } };
    // The grant for brand 1 is at Charlie (another organisation), which split@a.test does not see.
    expect((await prices('split@a.test', id('b', 1))).statusCode).toBe(200);
    expectError(
      await prices('split@a.test', id('b', 1), 'PUT', body),
      403,
      'UNAUTHORIZED',
      'Unauthorized',
    );
    // Brand-2 credentials do not see brand 1, whatever grant the user holds for it.
    expectError(
      await prices('brand2-grant1@a.test', id('b', 1), 'PUT', body),
      404,
      'NOT_FOUND',
      'Brand not found',
    );
    expect((await prices('admin@a.test', id('b', 1))).json().data.prices.Orders).toBe(0.1);
    // A grant at the facility it sees, in the other organisation, is enough (prices are the brand's).
    const put = await prices('charlie@b.test', id('b', 1), 'PUT', body);
    expect(put.statusCode, put.body).toBe(200);
    expect((await prices('admin@a.test', id('b', 1))).json().data).toMatchObject({
      prices: { Orders: 3 },
      actions: [],
    });
    const { brand_id: _id, ...original } = brandOnePrices();
    expect((await prices('admin@a.test', id('b', 1), 'PUT', original)).statusCode).toBe(200);
  });

  it('leaves one whole list after 50 parallel replacements', async () => {
    const lists = Array.from({ length: 50 }, (_, i) => ({
      prices: { Orders: i + 1, Units: (i + 1) / 100 },
      actions: [{ type: 'VAS', metric: `Kit ${i}`, price_dollars: i }],
    }));
    const responses = await Promise.all(
      lists.map((list, i) =>
        prices(i % 2 ? 'admin@a.test' : 'brand1@a.test', id('b', 1), 'PUT', list),
      ),
    );
    responses.forEach((response, i) => {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject(lists[i]!);
    });
    const { prices: stored, actions } = (await prices('admin@a.test', id('b', 1))).json().data;
    const winner = lists.find((list) => list.prices.Orders === stored.Orders);
    expect({ prices: stored, actions }).toEqual(winner);
    const { brand_id: _id, ...original } = brandOnePrices();
    expect((await prices('admin@a.test', id('b', 1), 'PUT', original)).statusCode).toBe(200);
  });

  it('refuses bad price lists, naming the field', async () => {
    const bad = [
      [{ prices: { Orders: 0.005 } }, /prices\.Orders: must be whole cents/],
      [{ prices: { Orders: -1 } }, /prices\.Orders: must not be negative/],
      [{ prices: { Pizzas: 1 } }, /prices/],
      [{ prices: { Orders: '1' } }, /prices\.Orders/],
      [
        {
          actions: [
            { type: 'VAS', metric: 'Kitting', price_dollars: 1 },
            { type: 'VAS', metric: 'kitting', price_dollars: 2 },
          ],
        },
        /actions\.1\.metric: duplicate action 'VAS \/ kitting' \(also actions\[0\]\)/,
      ],
      [{ actions: [{ type: 'Dance', metric: 'Pack', price_dollars: 1 }] }, /actions\.0\.type/],
      [{ extra: true }, /extra/],
    ] as const;
    for (const [body, details] of bad) {
      const error = expectError(
        await prices('admin@a.test', id('b', 1), 'PUT', body),
        400,
        'INVALID_REQUEST',
        'Invalid billing prices',
      ) as unknown as { error: { details: string } };
      expect(error.error.details).toMatch(details);
    }
  });
});

describe("the seed bundle's billing section", () => {
  const seedWith = async (billing: unknown[]) => {
    const local = await createTestService({ seed: baseBundle() });
    try {
      await importSeedBundle(local.ctx.db, { billing }, { passwordCost: TEST_PASSWORD_COST });
      return null;
    } catch (error) {
      return error as Error;
    } finally {
      await local.close();
    }
  };

  it('imports idempotently: a second import changes no row', async () => {
    const local = await createTestService({ seed: baseBundle() });
    try {
      const bundle = { billing: [brandOnePrices()] };
      await importSeedBundle(local.ctx.db, bundle, { passwordCost: TEST_PASSWORD_COST });
      const rows = () =>
        local.database.sqlite
          .prepare(
            `SELECT 'p', metric, price_cents, updated_at FROM billing_prices UNION ALL
             SELECT action_type, metric, price_cents, updated_at FROM billing_action_prices ORDER BY 1, 2`,
          )
          .all();
      const before = rows();
      expect(before).toHaveLength(7);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await importSeedBundle(local.ctx.db, bundle, { passwordCost: TEST_PASSWORD_COST });
      expect(rows()).toEqual(before);
      // A changed list replaces the old one whole.
      await importSeedBundle(
        local.ctx.db,
        { billing: [{ brand_id: id('b', 1), prices: { Orders: 2 } }] },
        { passwordCost: TEST_PASSWORD_COST },
      );
      expect(rows()).toEqual([
        { "'p'": 'p', metric: 'Orders', price_cents: 200, updated_at: expect.any(String) },
      ]);
    } finally {
      await local.close();
    }
  });

  it('names the bad entry', async () => {
    expect((await seedWith([{ brand_id: id('b', 9), prices: {} }]))?.message).toBe(
      `Invalid seed bundle at billing[0].brand_id: brand '${id('b', 9)}' does not exist`,
    );
    const duplicate = await seedWith([brandOnePrices(), { brand_id: id('b', 1) }]);
    expect(duplicate?.message).toBe(
      `Invalid seed bundle at billing[1].brand_id: duplicate '${id('b', 1)}' (also billing[0])`,
    );
    expect(duplicate?.constructor.name).toBe('SeedError');
    expect((await seedWith([{ brand_id: id('b', 1), prices: { Orders: 0.001 } }]))?.message).toBe(
      'Invalid seed bundle at billing[0].prices.Orders: must be whole cents (at most two decimals)',
    );
  });

  it('the demo prices import for the demo brands', async () => {
    const local = await createTestService();
    try {
      const { importDemoWorkspace } = await import('../../src/server/seed/demo');
      await importDemoWorkspace(local.ctx.db, { passwordCost: TEST_PASSWORD_COST });
      const count = local.database.sqlite
        .prepare('SELECT count(DISTINCT brand_id) AS n FROM billing_prices')
        .get() as { n: number };
      expect(count.n).toBe(3);
    } finally {
      await local.close();
    }
  });
});
