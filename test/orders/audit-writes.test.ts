/**
 * Audit of issue 7 against endpoints 4-6 and the order list: rules and refusals the feature
 * tests did not pin down yet (endpoint 18 agreement, tokens, empty bodies, FAILURE rows of
 * update and move, 500s of move and the list, the delivery window, the quantity cap).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_LIMITS } from '../../src/shared/orders';
import { expectError } from '../api/envelope';
import { id, ordersBundle } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { createBody, loginAll, logRows, orderRow, writer, type User } from './write-support';

let svc: TestService;
let tokens: Record<User, string>;
let api: ReturnType<typeof writer>;
let counter = 0;
const code = () => `PS-AUD${++counter}`;

beforeAll(async () => {
  svc = await createTestService({ seed: ordersBundle() });
  tokens = await loginAll(svc);
  api = writer(svc, tokens);
});
afterAll(async () => {
  await svc?.close();
});

const detailsOf = (body: { error: unknown }) =>
  (body.error as { details?: unknown }).details as string;

async function newOrder(overrides: Record<string, unknown> = {}) {
  const body = createBody({ picksheet_code: code(), ...overrides });
  const response = await api.create('ops@a.test', body);
  if (response.statusCode !== 201) throw new Error(response.body);
  return { orderId: response.json().data.order_id as string, picksheet: body.picksheet_code };
}

describe('4. the retailer must be one endpoint 18 lists for the brand at the facility', () => {
  it('create accepts exactly the retailers endpoint 18 lists, at every facility and brand', async () => {
    const facilities = [id('f', 1), id('f', 3), id('f', 4)];
    const brands = [id('b', 1), id('b', 2)];
    const retailers = [id('r', 1), id('r', 2), id('r', 3)];
    const outcomes = { accepted: 0, refused: 0 };
    for (const facility of facilities) {
      for (const brand of brands) {
        const brandWorksThere = (
          await svc.app.inject({
            method: 'GET',
            url: `/api/brand/v1/facility/${facility}`,
            headers: { authorization: tokens['ops@a.test'] },
          })
        )
          .json()
          .data?.some((b: { brand_id: string }) => b.brand_id === brand);
        if (!brandWorksThere) continue;
        const lookup = await svc.app.inject({
          method: 'GET',
          url: `/api/retailer/v1/facility/${facility}?brand_id=${brand}`,
          headers: { authorization: tokens['ops@a.test'] },
        });
        const listed = new Set<string>(
          lookup.statusCode === 200
            ? lookup.json().data.map((r: { retailer_id: string }) => r.retailer_id)
            : [],
        );
        for (const retailer of retailers) {
          const response = await api.create(
            'ops@a.test',
            createBody({
              picksheet_code: code(),
              facility_id: facility,
              brand_id: brand,
              retailer_id: retailer,
            }),
          );
          const where = `facility ${facility}, brand ${brand}, retailer ${retailer}`;
          if (listed.has(retailer)) {
            expect(response.statusCode, `${where}: ${response.body}`).toBe(201);
            outcomes.accepted += 1;
          } else {
            outcomes.refused += 1;
            expectError(
              response,
              400,
              'INVALID_REQUEST',
              'Failed to create order: retailer_id: no such retailer for this brand at this facility',
            );
          }
        }
      }
    }
    // Both sides of the rule were exercised.
    expect(outcomes.accepted).toBeGreaterThan(2);
    expect(outcomes.refused).toBeGreaterThan(2);
  });
});

describe('4. body rules', () => {
  it('a delivery window that ends before it starts is refused at latest_delivery_date', async () => {
    const body = expectError(
      await api.create(
        'admin@a.test',
        createBody({
          picksheet_code: code(),
          dates: { earliest_delivery_date: '2026-12-09', latest_delivery_date: '2026-12-08' },
        }),
      ),
      400,
      'INVALID_REQUEST',
      'Failed to create order: dates.latest_delivery_date: must not be before earliest_delivery_date',
    );
    expect(detailsOf(body)).toBe(
      'dates.latest_delivery_date: must not be before earliest_delivery_date',
    );
  });

  it(`quantities are capped at ${ORDER_LIMITS.quantity}`, async () => {
    const at = (quantity: number) =>
      api.create(
        'admin@a.test',
        createBody({ picksheet_code: code(), items: [{ sku: 'SKU-1', quantity }] }),
      );
    expect((await at(ORDER_LIMITS.quantity)).statusCode).toBe(201);
    const body = expectError(await at(ORDER_LIMITS.quantity + 1), 400, 'INVALID_REQUEST');
    expect(body.message).toMatch(/^Failed to create order: items\.0\.quantity: /);
  });
});

describe('5 and 6. refusals before the order is looked at', () => {
  it.each([
    ['PUT', '/api/v1/orders'],
    ['PUT', '/api/v1/orders/change-facility'],
  ] as const)('%s %s needs a token', async (method, url) => {
    expectError(
      await svc.app.inject({ method, url, payload: { picksheet_code: 'PS-1' } }),
      401,
      'UNAUTHORIZED',
      'Authentication failed',
    );
  });

  it.each([
    ['PUT', '/api/v1/orders'],
    ['PUT', '/api/v1/orders/change-facility'],
  ] as const)('%s %s with an empty JSON body: 400 Invalid request body', async (method, url) => {
    expectError(
      await svc.app.inject({
        method,
        url,
        headers: { authorization: tokens['admin@a.test'], 'content-type': 'application/json' },
        payload: '',
      }),
      400,
      'INVALID_REQUEST',
      'Invalid request body',
    );
  });
});

describe('5. FAILURE rows', () => {
  it('an update that finds no order logs a FAILURE row naming no order', async () => {
    const picksheet = 'NO-SUCH-AUDIT';
    expectError(
      await api.update('admin@a.test', { picksheet_code: picksheet, po_number: 'X' }),
      404,
      'NOT_FOUND',
      'Order not found',
    );
    const last = (await logRows(svc, null, 'INGEST_ORDER_PUT')).at(-1);
    expect(last).toMatchObject({
      execution_status: 'FAILURE',
      order_id: null,
      brand_id: null,
      retailer_id: null,
      facility_id: null,
      request_method: 'PUT',
      request_url: '/api/v1/orders',
      response_status: 404,
      error_message: 'Order not found',
    });
    expect(JSON.parse(last?.request_payload ?? '')).toMatchObject({ picksheet_code: picksheet });
  });
});

describe('a write that fails half-way', () => {
  it('move: 500 Failed to change facility, the order where it was, a FAILURE row naming it', async () => {
    const { orderId, picksheet } = await newOrder();
    const before = await orderRow(svc, orderId);
    // The facility update fails inside the move's transaction, as a broken disk would.
    await sql`CREATE TEMP TRIGGER audit_move_fails BEFORE UPDATE OF facility_id ON orders
      BEGIN SELECT RAISE(ABORT, 'simulated failure'); END`.execute(svc.ctx.db);
    try {
      const response = await api.move('ops@a.test', {
        picksheet_code: picksheet,
        facility_id: id('f', 4),
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        message: 'Failed to change facility',
        error: { code: 'INTERNAL_SERVER_ERROR' },
      });
      expect(response.body).not.toMatch(/simulated|SqliteError/);
    } finally {
      await sql`DROP TRIGGER audit_move_fails`.execute(svc.ctx.db);
    }
    expect(await orderRow(svc, orderId)).toEqual(before);
    const rows = await logRows(svc, orderId, 'INGEST_PURCHASE_ORDER_CHANGE');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      execution_status: 'FAILURE',
      response_status: 500,
      facility_id: id('f', 1),
      error_message: 'Failed to change facility',
    });
  });
});

describe('order list', () => {
  it('an unhandled failure answers 500 Order list retrieval failed in the envelope', async () => {
    const broken = await createTestService({ seed: ordersBundle() });
    try {
      const token = await broken.login('admin@a.test');
      broken.database.sqlite.exec('DROP TABLE order_items');
      expectError(
        await broken.app.inject({
          method: 'GET',
          url: '/api/v1/orders',
          headers: { authorization: token },
        }),
        500,
        'INTERNAL_SERVER_ERROR',
        'Order list retrieval failed',
      );
    } finally {
      await broken.close();
    }
  });
});
