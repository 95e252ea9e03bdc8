import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { id, ordersBundle } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import {
  createBody,
  itemRows,
  loginAll,
  logRows,
  orderRow,
  writer,
  type User,
} from './write-support';
import { describeEngines } from '../helpers/engines';

describeEngines('orders create', (engine) => {
  let svc: TestService;
  let api: ReturnType<typeof writer>;
  let counter = 0;
  /** A fresh picksheet code per test, so tests do not collide on the facility's unique code. */
  const code = () => `PS-C${++counter}`;

  beforeAll(async () => {
    svc = await createTestService({ engine, seed: ordersBundle() });
    api = writer(svc, await loginAll(svc));
  });
  afterAll(async () => {
    await svc?.close();
  });

  /** `error.details` of an error envelope. */
  const detailsOf = (body: { error: unknown }) =>
    (body.error as { details?: unknown }).details as string;

  const PICKSHEET_REQUIRED = 'Failed to create order: picksheet_code is required';

  describe('4. POST /api/v1/orders/create', () => {
    it('creates an Open order storing every field of the body, and answers 201 with its id', async () => {
      const body = createBody({ picksheet_code: code() });
      const response = await api.create('admin@a.test', body);
      expect(response.statusCode, response.body).toBe(201);
      const json = response.json();
      expect(json).toEqual({
        message: 'Order created successfully',
        data: { order_id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      });
      const order = await orderRow(svc, json.data.order_id);
      expect(order).toMatchObject({
        brand_id: id('b', 1),
        retailer_id: id('r', 1),
        facility_id: id('f', 1),
        picksheet_code: body.picksheet_code,
        po_number: 'PO-1001',
        external_order_id: 'EXT-1001',
        dept_number: '05',
        purchase_order_type: 'SA',
        transportation_method: 'FREIGHT',
        carrier: 'UPSF',
        status: 'Open',
        ...body.dates,
        started_at: null,
        packed_at: null,
        shipped_at: null,
        bill_of_lading_number: null,
      });
      expect(order.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(order.updated_at).toBe(order.created_at);
      expect(JSON.parse(order.ship_to_json ?? 'null')).toEqual(body.address_data.ship_to_contact);
      // Blank strings are stored as not given.
      expect(JSON.parse(order.bill_to_json ?? 'null')).toEqual({
        ...body.address_data.bill_to_contact,
        address_line2: null,
      });
      expect(JSON.parse(order.mark_for_json ?? 'null')).toEqual({
        ...body.address_data.mark_for_contact,
        address_line2: null,
      });
      const items = await itemRows(svc, json.data.order_id);
      expect(items.map(({ id: _id, order_id: _o, ...rest }) => rest)).toEqual([
        {
          line_number: 0,
          sku: 'SKU-RED',
          upc: '012345678905',
          quantity: 12,
          case_pack_quantity: 6,
          case_barcode: '10012345678902',
          vendor_pn: 'VP-RED',
          description: 'Red mug',
          trackers_json: null,
          pass_through_json: null,
        },
        {
          line_number: 1,
          sku: 'SKU-BLUE',
          upc: '012345678912',
          quantity: 3,
          case_pack_quantity: null,
          case_barcode: null,
          vendor_pn: null,
          description: null,
          trackers_json: null,
          pass_through_json: null,
        },
      ]);
    });

    it('writes one CREATE_ORDERS_FROM row in the transaction log', async () => {
      const response = await api.create('admin@a.test', createBody({ picksheet_code: code() }));
      const orderId = response.json().data.order_id as string;
      const rows = await logRows(svc, orderId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        action_type: 'CREATE_ORDERS_FROM',
        action_type_label: 'Create order',
        brand_id: id('b', 1),
        retailer_id: id('r', 1),
        facility_id: id('f', 1),
        execution_status: 'SUCCESS',
        error_message: null,
        request_method: 'POST',
        request_url: '/api/v1/orders/create',
        response_status: 201,
      });
      expect(JSON.parse(rows[0]?.response_body ?? '')).toEqual(response.json());
      expect(JSON.parse(rows[0]?.request_payload ?? '')).toMatchObject({ po_number: 'PO-1001' });
    });

    it('needs only the picksheet code, the three ids and one item', async () => {
      const response = await api.create('admin@a.test', {
        picksheet_code: code(),
        brand_id: id('b', 1),
        retailer_id: id('r', 1),
        facility_id: id('f', 1),
        items: [{ sku: 'SKU-1', quantity: 1 }],
      });
      expect(response.statusCode, response.body).toBe(201);
    });

    describe('picksheet_code is required', () => {
      const withoutCode = () => {
        const { picksheet_code: _omitted, ...rest } = createBody();
        return rest;
      };
      it.each([
        ['left out', withoutCode()],
        ['null', createBody({ picksheet_code: null })],
        ['blank', createBody({ picksheet_code: '   ' })],
        ['empty', createBody({ picksheet_code: '' })],
        ['with other problems too', { ...withoutCode(), items: [] }],
        ['a body that is not an object', [createBody()]],
      ])('%s: 400 with the interface message', async (_case, payload) => {
        const body = expectError(
          await api.create('admin@a.test', payload),
          400,
          'INVALID_REQUEST',
          PICKSHEET_REQUIRED,
        );
        expect(body.error).toMatchObject({ details: 'picksheet_code: is required' });
      });

      it('an empty JSON body gets the same message', async () => {
        const response = await svc.app.inject({
          method: 'POST',
          url: '/api/v1/orders/create',
          headers: {
            authorization: (await svc.login('admin@a.test')) as string,
            'content-type': 'application/json',
          },
          payload: '',
        });
        expectError(response, 400, 'INVALID_REQUEST', PICKSHEET_REQUIRED);
      });
    });

    describe('other problems read "Failed to create order: <problem>" with every problem in details', () => {
      const item = { sku: 'SKU-1', quantity: 1 };
      it.each<[string, Record<string, unknown>, string]>([
        [
          'Feb 30',
          { dates: { requested_ship_date: '2026-02-30' } },
          'dates.requested_ship_date: must be a real calendar date written YYYY-MM-DD',
        ],
        [
          'month 13',
          { dates: { cancel_by_date: '2026-13-01' } },
          'dates.cancel_by_date: must be a real calendar date',
        ],
        [
          'a date-time',
          { dates: { stage_by: '2026-12-01T00:00:00Z' } },
          'dates.stage_by: must be a real calendar date',
        ],
        [
          'a non-leap Feb 29',
          { dates: { stage_by: '2027-02-29' } },
          'dates.stage_by: must be a real calendar date',
        ],
        [
          'ship window backwards',
          { dates: { earliest_ship_date: '2026-12-05', latest_ship_date: '2026-12-04' } },
          'dates.latest_ship_date: must not be before earliest_ship_date',
        ],
        [
          'quantity 0',
          { items: [{ ...item, quantity: 0 }] },
          'items.0.quantity: must be greater than 0',
        ],
        [
          'negative quantity',
          { items: [{ ...item, quantity: -2 }] },
          'items.0.quantity: must be greater than 0',
        ],
        [
          'fractional quantity',
          { items: [item, { ...item, quantity: 1.5 }] },
          'items.1.quantity: must be a whole number',
        ],
        [
          'quantity as text',
          { items: [{ ...item, quantity: '3' }] },
          'items.0.quantity: must be a whole number',
        ],
        [
          'case pack 0',
          { items: [{ ...item, case_pack_quantity: 0 }] },
          'items.0.case_pack_quantity: must be greater than 0',
        ],
        ['no items', { items: [] }, 'items:'],
        ['an item without SKU', { items: [{ quantity: 1 }] }, 'items.0.sku: is required'],
        [
          'a bad e-mail',
          { address_data: { bill_to_contact: { email: 'not-an-address' } } },
          'address_data.bill_to_contact.email: must be an e-mail address',
        ],
        ['a bad brand id', { brand_id: 'brand-1' }, 'brand_id:'],
        ['no facility', { facility_id: undefined }, 'facility_id:'],
        [
          'a picksheet code over 100 characters',
          { picksheet_code: 'P'.repeat(101) },
          'picksheet_code:',
        ],
      ])('%s', async (_case, overrides, detail) => {
        const body = expectError(
          await api.create('admin@a.test', createBody({ picksheet_code: code(), ...overrides })),
          400,
          'INVALID_REQUEST',
        );
        expect(body.message).toMatch(/^Failed to create order: /);
        expect(body.message).toContain(detail);
        expect(typeof detailsOf(body)).toBe('string');
        expect(detailsOf(body)).toContain(detail);
      });

      it('lists every problem in details, the first in the message', async () => {
        const body = expectError(
          await api.create(
            'admin@a.test',
            createBody({ items: [{ sku: 'A', quantity: 0 }], dates: { stage_by: 'soon' } }),
          ),
          400,
          'INVALID_REQUEST',
        );
        const details = detailsOf(body);
        expect(details).toContain('items.0.quantity');
        expect(details).toContain('dates.stage_by');
        expect(body.message).toBe(`Failed to create order: ${details.split('; ')[0]}`);
      });
    });

    describe('brand, retailer and facility', () => {
      const refused = async (user: User, overrides: Record<string, unknown>, detail: string) => {
        const picksheet = code();
        const body = expectError(
          await api.create(user, createBody({ picksheet_code: picksheet, ...overrides })),
          400,
          'INVALID_REQUEST',
          `Failed to create order: ${detail}`,
        );
        expect(body.error).toEqual({ code: 'INVALID_REQUEST', details: detail });
        const stored = await svc.ctx.db
          .selectFrom('orders')
          .select('id')
          .where('picksheet_code', '=', picksheet)
          .execute();
        expect(stored).toEqual([]);
      };

      it('an unknown facility', async () => {
        await refused(
          'admin@a.test',
          { facility_id: id('f', 99) },
          'facility_id: no such facility',
        );
      });
      it("another tenant's facility answers like an unknown one", async () => {
        // brand2@b.test sees only Charlie (org 2); Alpha exists but is not theirs.
        await refused(
          'brand2@b.test',
          { brand_id: id('b', 2), retailer_id: id('r', 2) },
          'facility_id: no such facility',
        );
      });
      it('a user of the same brand with a grant only at another facility cannot create at Alpha', async () => {
        await refused('charlie1@b.test', {}, 'facility_id: no such facility');
      });
      it('a facility of the brand-user that the brand does not work at is invisible', async () => {
        // brand1@a.test lists Bravo, but brand 1 does not work there.
        await refused(
          'brand1@a.test',
          { facility_id: id('f', 2) },
          'facility_id: no such facility',
        );
      });
      it('a brand that does not work at the facility', async () => {
        // admin@a.test sees Bravo; no brand works there.
        await refused(
          'admin@a.test',
          { facility_id: id('f', 2) },
          'brand_id: no such brand at this facility',
        );
      });
      it('an unknown brand answers like a brand that does not work there', async () => {
        await refused(
          'admin@a.test',
          { brand_id: id('b', 99) },
          'brand_id: no such brand at this facility',
        );
      });
      it('a brand user cannot create for another brand, even one working at the facility', async () => {
        await refused(
          'brand1@a.test',
          { brand_id: id('b', 2), retailer_id: id('r', 2) },
          'brand_id: no such brand at this facility',
        );
      });
      it('a retailer the brand has no connection with in the facility organisation', async () => {
        // Brand 1 reaches retailer 3 only through org 2; Alpha is in org 1.
        await refused(
          'admin@a.test',
          { retailer_id: id('r', 3) },
          'retailer_id: no such retailer for this brand at this facility',
        );
      });
      it("another brand's retailer", async () => {
        await refused(
          'admin@a.test',
          { retailer_id: id('r', 2) },
          'retailer_id: no such retailer for this brand at this facility',
        );
      });
      it('an unknown retailer', async () => {
        await refused(
          'admin@a.test',
          { retailer_id: id('r', 99) },
          'retailer_id: no such retailer for this brand at this facility',
        );
      });
      it('brand 1 reaches retailer 3 at Charlie (org 2)', async () => {
        const response = await api.create(
          'charlie1@b.test',
          createBody({ picksheet_code: code(), facility_id: id('f', 3), retailer_id: id('r', 3) }),
        );
        expect(response.statusCode, response.body).toBe(201);
      });
    });

    describe('duplicate picksheet codes', () => {
      it('the same code at the same facility is a 409 naming the code; only a FAILURE row is written', async () => {
        const picksheet = code();
        expect(
          (await api.create('admin@a.test', createBody({ picksheet_code: picksheet }))).statusCode,
        ).toBe(201);
        const logBefore = (await logRows(svc, null)).length;
        const body = expectError(
          await api.create(
            'brand1@a.test',
            createBody({ picksheet_code: picksheet, po_number: 'PO-2' }),
          ),
          409,
          'INVALID_REQUEST',
          `Failed to create order: picksheet_code ${picksheet} already exists at this facility`,
        );
        expect(body.error).toMatchObject({
          details: `picksheet_code: ${picksheet} is taken at this facility`,
        });
        const rows = await logRows(svc, null);
        expect(rows.length).toBe(logBefore + 1);
        expect(rows.at(-1)).toMatchObject({
          action_type: 'CREATE_ORDERS_FROM',
          execution_status: 'FAILURE',
          order_id: null,
          brand_id: id('b', 1),
          retailer_id: id('r', 1),
          facility_id: id('f', 1),
          response_status: 409,
          error_message: `Failed to create order: picksheet_code ${picksheet} already exists at this facility: picksheet_code: ${picksheet} is taken at this facility`,
        });
        expect(JSON.parse(rows.at(-1)?.response_body ?? '')).toEqual(body);
      });

      it('the same code at another facility is another order', async () => {
        const picksheet = code();
        const first = await api.create('ops@a.test', createBody({ picksheet_code: picksheet }));
        const second = await api.create(
          'ops@a.test',
          createBody({ picksheet_code: picksheet, facility_id: id('f', 4) }),
        );
        expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
        expect(first.json().data.order_id).not.toBe(second.json().data.order_id);
      });

      it('50 parallel creates of one code without a key: one order, 49 conflicts', async () => {
        const picksheet = code();
        const responses = await Promise.all(
          Array.from({ length: 50 }, () =>
            api.create('admin@a.test', createBody({ picksheet_code: picksheet })),
          ),
        );
        const statuses = responses.map((r) => r.statusCode).sort();
        expect(statuses.filter((s) => s === 201)).toHaveLength(1);
        expect(statuses.filter((s) => s === 409)).toHaveLength(49);
        const orders = await svc.ctx.db
          .selectFrom('orders')
          .select('id')
          .where('picksheet_code', '=', picksheet)
          .execute();
        expect(orders).toHaveLength(1);
      });
    });

    describe('Idempotency-Key', () => {
      it('a retry with the same key and body returns the first answer, not a second order', async () => {
        const body = createBody({ picksheet_code: code() });
        const first = await api.create('admin@a.test', body, { 'idempotency-key': 'key-retry-1' });
        const retry = await api.create('admin@a.test', body, { 'idempotency-key': 'key-retry-1' });
        expect(first.statusCode).toBe(201);
        expect(retry.statusCode).toBe(201);
        expect(retry.json()).toEqual(first.json());
        expect(first.headers['idempotent-replayed']).toBeUndefined();
        expect(retry.headers['idempotent-replayed']).toBe('true');
        const orders = await svc.ctx.db
          .selectFrom('orders')
          .select('id')
          .where('picksheet_code', '=', body.picksheet_code)
          .execute();
        expect(orders).toHaveLength(1);
        const rows = await logRows(svc, first.json().data.order_id);
        expect(rows).toHaveLength(1);
        expect(rows[0]?.correlation_id).toBe('key-retry-1');
      });

      it('key order and spacing in the retried body do not matter', async () => {
        const body = createBody({ picksheet_code: code() });
        const first = await api.create('admin@a.test', body, { 'idempotency-key': 'key-reorder' });
        const reordered = Object.fromEntries(Object.entries(body).reverse());
        const retry = await api.create(
          'admin@a.test',
          { ...reordered, po_number: ' PO-1001 ' },
          { 'idempotency-key': 'key-reorder' },
        );
        expect(retry.statusCode, retry.body).toBe(201);
        expect(retry.json()).toEqual(first.json());
      });

      it('the same key with a different body is a 409, and creates nothing', async () => {
        const picksheet = code();
        await api.create('admin@a.test', createBody({ picksheet_code: code() }), {
          'idempotency-key': 'key-reused',
        });
        const body = expectError(
          await api.create('admin@a.test', createBody({ picksheet_code: picksheet }), {
            'idempotency-key': 'key-reused',
          }),
          409,
          'INVALID_REQUEST',
          'Failed to create order: Idempotency-Key was already used for another order',
        );
        expect(typeof detailsOf(body)).toBe('string');
        const orders = await svc.ctx.db
          .selectFrom('orders')
          .select('id')
          .where('picksheet_code', '=', picksheet)
          .execute();
        expect(orders).toEqual([]);
      });

      it('keys are per user: another user with the same key makes their own order', async () => {
        const first = await api.create('admin@a.test', createBody({ picksheet_code: code() }), {
          'idempotency-key': 'key-shared',
        });
        const second = await api.create('ops@a.test', createBody({ picksheet_code: code() }), {
          'idempotency-key': 'key-shared',
        });
        expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
        expect(second.json().data.order_id).not.toBe(first.json().data.order_id);
      });

      it('a refused create is not remembered: the retry after fixing the body succeeds', async () => {
        const body = createBody({ picksheet_code: code() });
        expectError(
          await api.create(
            'admin@a.test',
            { ...body, retailer_id: id('r', 2) },
            { 'idempotency-key': 'key-fix' },
          ),
          400,
          'INVALID_REQUEST',
        );
        const fixed = await api.create('admin@a.test', body, { 'idempotency-key': 'key-fix' });
        expect(fixed.statusCode, fixed.body).toBe(201);
      });

      it.each([['x'.repeat(256)], ['has space'], ['tab\there']])(
        'an unusable key %#: 400',
        async (key) => {
          expectError(
            await api.create('admin@a.test', createBody({ picksheet_code: code() }), {
              'idempotency-key': key,
            }),
            400,
            'INVALID_REQUEST',
            'Failed to create order: Idempotency-Key must be 1 to 255 visible ASCII characters',
          );
        },
      );

      it('50 parallel identical requests with one key make one order, and all get its id', async () => {
        const body = createBody({ picksheet_code: code() });
        const responses = await Promise.all(
          Array.from({ length: 50 }, () =>
            api.create('ops@a.test', body, { 'idempotency-key': 'key-parallel' }),
          ),
        );
        expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
        const ids = new Set(responses.map((r) => r.json().data.order_id as string));
        expect(ids.size).toBe(1);
        const orders = await svc.ctx.db
          .selectFrom('orders')
          .select('id')
          .where('picksheet_code', '=', body.picksheet_code)
          .execute();
        expect(orders).toHaveLength(1);
        expect(await logRows(svc, [...ids][0] ?? '')).toHaveLength(1);
        expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(
          49,
        );
      });
    });

    describe('refused creates write a FAILURE row', () => {
      const lastRow = async () => (await logRows(svc, null)).at(-1);

      it('a body problem: the message and the request as sent, no ids', async () => {
        const payload = createBody({ picksheet_code: code(), items: [{ sku: 'A', quantity: 0 }] });
        const response = await api.create('admin@a.test', payload, {
          'idempotency-key': 'key-bad',
        });
        expect(response.statusCode).toBe(400);
        expect(await lastRow()).toMatchObject({
          action_type: 'CREATE_ORDERS_FROM',
          execution_status: 'FAILURE',
          brand_id: null,
          retailer_id: null,
          facility_id: null,
          order_id: null,
          correlation_id: 'key-bad',
          response_status: 400,
          error_message: 'Failed to create order: items.0.quantity: must be greater than 0',
        });
        expect(JSON.parse((await lastRow())?.request_payload ?? '')).toEqual(payload);
      });

      it("another tenant's facility is not named in the row", async () => {
        const response = await api.create(
          'brand2@b.test',
          createBody({ picksheet_code: code(), brand_id: id('b', 2), retailer_id: id('r', 2) }),
        );
        expect(response.statusCode).toBe(400);
        expect(await lastRow()).toMatchObject({
          execution_status: 'FAILURE',
          facility_id: null,
          brand_id: null,
          retailer_id: null,
          error_message: 'Failed to create order: facility_id: no such facility',
        });
      });

      it('a missing picksheet code', async () => {
        await api.create('admin@a.test', createBody({ picksheet_code: '' }));
        expect(await lastRow()).toMatchObject({
          execution_status: 'FAILURE',
          error_message: `${PICKSHEET_REQUIRED}: picksheet_code: is required`,
          response_status: 400,
        });
      });
    });

    it('needs a token', async () => {
      const response = await svc.app.inject({
        method: 'POST',
        url: '/api/v1/orders/create',
        payload: createBody({ picksheet_code: code() }),
      });
      expectError(response, 401, 'UNAUTHORIZED', 'Authentication failed');
    });

    it('the three order writes are in the OpenAPI document with their bodies', async () => {
      const doc = (await svc.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
      const create = doc.paths['/api/v1/orders/create'].post;
      expect(
        create.requestBody.content['application/json'].schema.properties.picksheet_code.type,
      ).toBe('string');
      expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '409']));
      expect(create.parameters).toContainEqual(
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
      );
      expect(doc.paths['/api/v1/orders'].put).toBeDefined();
      expect(doc.paths['/api/v1/orders/change-facility'].put).toBeDefined();
    });
  });

  describe('a write that fails half-way', () => {
    it('create: 500 Failed to create order, no order left behind, a FAILURE row', async () => {
      const own = await createTestService({ engine, seed: ordersBundle() });
      try {
        const ownApi = writer(own, await loginAll(own));
        // The order insert succeeds, the item insert fails: the transaction must roll back.
        await execRaw(own, 'ALTER TABLE order_items RENAME TO order_items_gone');
        const response = await ownApi.create(
          'admin@a.test',
          createBody({ picksheet_code: 'HALF-1' }),
        );
        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({
          message: 'Failed to create order',
          error: { code: 'INTERNAL_SERVER_ERROR' },
        });
        expect(response.body).not.toMatch(/order_items|SqliteError/);
        expect(await own.ctx.db.selectFrom('orders').select('id').execute()).toEqual([]);
        const rows = await logRows(own, null);
        expect(rows.map((r) => [r.action_type, r.execution_status, r.response_status])).toEqual([
          ['CREATE_ORDERS_FROM', 'FAILURE', 500],
        ]);
      } finally {
        await own.close();
      }
    });

    it('update: 500 Failed to update order, the order as it was', async () => {
      const own = await createTestService({ engine, seed: ordersBundle() });
      try {
        const ownApi = writer(own, await loginAll(own));
        const created = await ownApi.create(
          'admin@a.test',
          createBody({ picksheet_code: 'HALF-2' }),
        );
        const orderId = created.json().data.order_id as string;
        const before = await orderRow(own, orderId);
        await execRaw(own, 'ALTER TABLE order_items RENAME TO order_items_gone');
        const response = await ownApi.update('admin@a.test', {
          picksheet_code: 'HALF-2',
          po_number: 'NEVER',
          items: [{ sku: 'A', quantity: 1 }],
        });
        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({
          message: 'Failed to update order',
          error: { code: 'INTERNAL_SERVER_ERROR' },
        });
        expect(await orderRow(own, orderId)).toEqual(before);
      } finally {
        await own.close();
      }
    });
  });

  /** A statement written by hand, on either engine. */
  async function execRaw(service: TestService, statement: string): Promise<void> {
    await sql.raw(statement).execute(service.ctx.db);
  }
});
