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
  setStatus,
  writer,
} from './write-support';
import { describeEngines } from '../helpers/engines';

describeEngines('orders update', (engine) => {
  let svc: TestService;
  let api: ReturnType<typeof writer>;
  let counter = 0;
  const code = () => `PS-U${++counter}`;

  beforeAll(async () => {
    svc = await createTestService({ engine, seed: ordersBundle() });
    api = writer(svc, await loginAll(svc));
  });
  afterAll(async () => {
    await svc?.close();
  });

  const detailsOf = (body: { error: unknown }) =>
    (body.error as { details?: unknown }).details as string;

  /** Creates an order through the API (as ops@a.test, who sees every facility) and returns its id. */
  async function newOrder(overrides: Record<string, unknown> = {}) {
    const body = createBody({ picksheet_code: code(), ...overrides });
    const response = await api.create('ops@a.test', body);
    if (response.statusCode !== 201) throw new Error(response.body);
    return { orderId: response.json().data.order_id as string, picksheet: body.picksheet_code };
  }

  describe('5. PUT /api/v1/orders', () => {
    it('updates the fields given, keeps the rest, and answers with the order id', async () => {
      const { orderId, picksheet } = await newOrder();
      const before = await orderRow(svc, orderId);
      const response = await api.update('admin@a.test', {
        picksheet_code: picksheet,
        po_number: 'PO-CHANGED',
        dates: { cancel_by_date: '2026-12-20' },
        address_data: { ship_to_contact: { name: 'Store 99', city: 'Sparks' } },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        message: 'Order updated successfully',
        data: { order_id: orderId },
      });
      const after = await orderRow(svc, orderId);
      expect(after).toMatchObject({
        po_number: 'PO-CHANGED',
        cancel_by_date: '2026-12-20',
        requested_ship_date: before.requested_ship_date,
        external_order_id: before.external_order_id,
        bill_to_json: before.bill_to_json,
        status: 'Open',
        created_at: before.created_at,
      });
      expect(JSON.parse(after.ship_to_json ?? 'null')).toEqual({
        name: 'Store 99',
        city: 'Sparks',
      });
      expect(after.updated_at >= before.updated_at).toBe(true);
      // Items were not in the body: unchanged.
      expect((await itemRows(svc, orderId)).map((i) => i.sku)).toEqual(['SKU-RED', 'SKU-BLUE']);
    });

    it('replaces the items, storing trackers and pass_through, keeping create-only fields per SKU', async () => {
      const { orderId, picksheet } = await newOrder();
      const trackers = [
        {
          quantity: 4,
          lot_number: 'LOT-A',
          exp_date: '2027-06-30',
          pass_through: { lot_id: 'L1' },
        },
        {
          quantity: 6,
          lot_number: 'LOT-B',
          exp_date: '2027-07-31',
          pass_through: { lot_id: 'L2' },
        },
      ];
      const passThrough = { line_id: '1', stock_number: 'STK-9', pull_id: 'P-3', bin: 'A-01' };
      const response = await api.update('admin@a.test', {
        picksheet_code: picksheet,
        items: [
          {
            sku: 'SKU-RED',
            upc: '012345678905',
            quantity: 10,
            trackers,
            pass_through: passThrough,
          },
          { sku: 'SKU-GREEN', upc: '012345678929', quantity: 2, description: null },
        ],
      });
      expect(response.statusCode, response.body).toBe(200);
      const items = await itemRows(svc, orderId);
      expect(items).toHaveLength(2);
      expect(items[0]).toMatchObject({
        line_number: 0,
        sku: 'SKU-RED',
        quantity: 10,
        case_pack_quantity: 6,
        case_barcode: '10012345678902',
        vendor_pn: 'VP-RED',
        description: 'Red mug',
      });
      expect(JSON.parse(items[0]?.trackers_json ?? 'null')).toEqual(trackers);
      expect(JSON.parse(items[0]?.pass_through_json ?? 'null')).toEqual(passThrough);
      expect(items[1]).toMatchObject({
        line_number: 1,
        sku: 'SKU-GREEN',
        quantity: 2,
        case_pack_quantity: null,
        description: null,
        trackers_json: null,
        pass_through_json: null,
      });
    });

    it('writes one INGEST_ORDER_PUT row per update', async () => {
      const { orderId, picksheet } = await newOrder();
      const response = await api.update('admin@a.test', {
        picksheet_code: picksheet,
        po_number: 'X',
      });
      const rows = await logRows(svc, orderId, 'INGEST_ORDER_PUT');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        action_type_label: 'Update order',
        brand_id: id('b', 1),
        retailer_id: id('r', 1),
        facility_id: id('f', 1),
        execution_status: 'SUCCESS',
        request_method: 'PUT',
        request_url: '/api/v1/orders',
        response_status: 200,
      });
      expect(JSON.parse(rows[0]?.response_body ?? '')).toEqual(response.json());
    });

    describe('Invalid request body, with a string details', () => {
      it.each<[string, unknown, string]>([
        ['no picksheet code', { po_number: 'PO' }, 'picksheet_code: is required'],
        ['a blank picksheet code', { picksheet_code: ' ' }, 'picksheet_code: is required'],
        ['an array', [], 'picksheet_code: is required'],
        [
          'quantity 0',
          { picksheet_code: 'PS', items: [{ sku: 'A', quantity: 0 }] },
          'items.0.quantity: must be greater than 0',
        ],
        [
          'a tracker date that is not a date',
          {
            picksheet_code: 'PS',
            items: [{ sku: 'A', quantity: 2, trackers: [{ quantity: 1, exp_date: '2027-02-30' }] }],
          },
          'items.0.trackers.0.exp_date: must be a real calendar date',
        ],
        [
          'trackers over the quantity',
          {
            picksheet_code: 'PS',
            items: [{ sku: 'A', quantity: 2, trackers: [{ quantity: 2 }, { quantity: 1 }] }],
          },
          'items.0.trackers: tracker quantities add up to 3, more than the item quantity 2',
        ],
        ['an empty item list', { picksheet_code: 'PS', items: [] }, 'items:'],
        ['a bad brand id', { picksheet_code: 'PS', brand_id: 'b1' }, 'brand_id:'],
        [
          'a bad e-mail',
          { picksheet_code: 'PS', address_data: { bill_to_contact: { email: 'x@' } } },
          'address_data.bill_to_contact.email: must be an e-mail address',
        ],
      ])('%s', async (_case, payload, detail) => {
        const body = expectError(
          await api.update('admin@a.test', payload),
          400,
          'INVALID_REQUEST',
          'Invalid request body',
        );
        expect(typeof detailsOf(body)).toBe('string');
        expect(detailsOf(body)).toContain(detail);
      });
    });

    describe('finding the order', () => {
      it('an unknown picksheet code: 404 Order not found', async () => {
        expectError(
          await api.update('admin@a.test', { picksheet_code: 'NO-SUCH-CODE' }),
          404,
          'NOT_FOUND',
          'Order not found',
        );
      });

      it("another brand's order at a facility the user sees answers like an unknown one", async () => {
        // brand2@b.test sees Charlie; the order is brand 1's at Charlie.
        const { orderId, picksheet } = await newOrder({
          facility_id: id('f', 3),
          retailer_id: id('r', 3),
        });
        const unknown = await api.update('brand2@b.test', { picksheet_code: 'NO-SUCH-CODE' });
        const other = await api.update('brand2@b.test', {
          picksheet_code: picksheet,
          po_number: 'HIJACK',
        });
        expectError(other, 404, 'NOT_FOUND', 'Order not found');
        expect(other.json()).toEqual(unknown.json());
        expect((await orderRow(svc, orderId)).po_number).toBe('PO-1001');
      });

      it('a user of the same brand with grants only at another facility cannot update it', async () => {
        // charlie1@b.test acts for brand 1 too, but only at Charlie (org 2); the order is at Alpha.
        const { orderId, picksheet } = await newOrder();
        expectError(
          await api.update('charlie1@b.test', { picksheet_code: picksheet, po_number: 'HIJACK' }),
          404,
          'NOT_FOUND',
          'Order not found',
        );
        expect((await orderRow(svc, orderId)).po_number).toBe('PO-1001');
      });

      it('the same code at two facilities: 400 asking to narrow, then facility_id picks one', async () => {
        const picksheet = code();
        const first = await newOrder({ picksheet_code: picksheet });
        const second = await newOrder({ picksheet_code: picksheet, facility_id: id('f', 4) });
        const body = expectError(
          await api.update('ops@a.test', { picksheet_code: picksheet, po_number: 'NEW' }),
          400,
          'INVALID_REQUEST',
          'Invalid request body',
        );
        expect(detailsOf(body)).toBe(
          `Several orders have picksheet_code ${picksheet}; give brand_id, retailer_id, facility_id, order_id to pick one`,
        );
        const narrowed = await api.update('ops@a.test', {
          picksheet_code: picksheet,
          facility_id: id('f', 4),
          po_number: 'NEW',
        });
        expect(narrowed.json()).toEqual({
          message: 'Order updated successfully',
          data: { order_id: second.orderId },
        });
        expect((await orderRow(svc, first.orderId)).po_number).toBe('PO-1001');
        expect((await orderRow(svc, second.orderId)).po_number).toBe('NEW');
        const byId = await api.update('ops@a.test', {
          picksheet_code: picksheet,
          order_id: first.orderId,
          po_number: 'BY-ID',
        });
        expect(byId.json().data).toEqual({ order_id: first.orderId });
        expect((await orderRow(svc, first.orderId)).po_number).toBe('BY-ID');
        // order_id must match the picksheet code too.
        expectError(
          await api.update('ops@a.test', { picksheet_code: 'OTHER', order_id: first.orderId }),
          404,
          'NOT_FOUND',
          'Order not found',
        );
      });

      it('a user who sees only one of the two finds that one without narrowing', async () => {
        const picksheet = code();
        const atAlpha = await newOrder({ picksheet_code: picksheet });
        await newOrder({ picksheet_code: picksheet, facility_id: id('f', 4) });
        // viewer@a.test sees only Alpha.
        const response = await api.update('viewer@a.test', {
          picksheet_code: picksheet,
          po_number: 'V',
        });
        expect(response.json().data).toEqual({ order_id: atAlpha.orderId });
      });

      it('brand_id and retailer_id narrow the search; a mismatch is Order not found', async () => {
        const { picksheet } = await newOrder();
        expectError(
          await api.update('admin@a.test', { picksheet_code: picksheet, brand_id: id('b', 2) }),
          404,
          'NOT_FOUND',
          'Order not found',
        );
        expectError(
          await api.update('admin@a.test', { picksheet_code: picksheet, retailer_id: id('r', 2) }),
          404,
          'NOT_FOUND',
          'Order not found',
        );
        const response = await api.update('admin@a.test', {
          picksheet_code: picksheet,
          brand_id: id('b', 1),
          retailer_id: id('r', 1),
          facility_id: id('f', 1),
        });
        expect(response.statusCode, response.body).toBe(200);
      });
    });

    describe('status rules', () => {
      it.each(['Shipped', 'Cancelled'])(
        'a %s order is refused (409) and left as it is',
        async (status) => {
          const { orderId, picksheet } = await newOrder();
          await setStatus(svc, orderId, status);
          const before = await orderRow(svc, orderId);
          const body = expectError(
            await api.update('admin@a.test', { picksheet_code: picksheet, po_number: 'LATE' }),
            409,
            'INVALID_REQUEST',
            'Order cannot be updated',
          );
          expect(detailsOf(body)).toBe(
            `The order is ${status}; a ${status.toLowerCase()} order cannot change`,
          );
          expect(await orderRow(svc, orderId)).toEqual(before);
          const rows = await logRows(svc, orderId, 'INGEST_ORDER_PUT');
          expect(rows.map((r) => [r.execution_status, r.response_status])).toEqual([
            ['FAILURE', 409],
          ]);
        },
      );

      it.each(['Packed', 'Staged', 'Loaded'])(
        'a %s order keeps its items (409)',
        async (status) => {
          const { orderId, picksheet } = await newOrder();
          await setStatus(svc, orderId, status);
          const body = expectError(
            await api.update('admin@a.test', {
              picksheet_code: picksheet,
              items: [{ sku: 'NEW', quantity: 1 }],
            }),
            409,
            'INVALID_REQUEST',
            'Order cannot be updated',
          );
          expect(detailsOf(body)).toBe(`Items change only before packing; the order is ${status}`);
          expect((await itemRows(svc, orderId)).map((i) => i.sku)).toEqual(['SKU-RED', 'SKU-BLUE']);
        },
      );

      it('a Packed order still takes other details', async () => {
        const { orderId, picksheet } = await newOrder();
        await setStatus(svc, orderId, 'Packed');
        const response = await api.update('admin@a.test', {
          picksheet_code: picksheet,
          po_number: 'FIX',
        });
        expect(response.statusCode, response.body).toBe(200);
        expect((await orderRow(svc, orderId)).po_number).toBe('FIX');
      });

      it('a Picking order still takes items', async () => {
        const { orderId, picksheet } = await newOrder();
        await setStatus(svc, orderId, 'Picking');
        const response = await api.update('admin@a.test', {
          picksheet_code: picksheet,
          items: [{ sku: 'SKU-RED', quantity: 1 }],
        });
        expect(response.statusCode, response.body).toBe(200);
        expect((await itemRows(svc, orderId)).map((i) => i.quantity)).toEqual([1]);
      });
    });

    it('50 parallel updates of one order: all succeed, one consistent item list, 50 log rows', async () => {
      const { orderId, picksheet } = await newOrder();
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, n) =>
          api.update('admin@a.test', {
            picksheet_code: picksheet,
            po_number: `PO-${n}`,
            items: Array.from({ length: (n % 3) + 1 }, (_x, line) => ({
              sku: `SKU-${n}-${line}`,
              quantity: n + 1,
            })),
          }),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
      const order = await orderRow(svc, orderId);
      const n = Number(order.po_number?.slice(3));
      // The stored lines are exactly the lines of the update that wrote the PO last.
      const items = await itemRows(svc, orderId);
      expect(items.map((i) => i.sku)).toEqual(
        Array.from({ length: (n % 3) + 1 }, (_x, line) => `SKU-${n}-${line}`),
      );
      expect(items.map((i) => i.line_number)).toEqual(items.map((_i, index) => index));
      expect(await logRows(svc, orderId, 'INGEST_ORDER_PUT')).toHaveLength(50);
    });
  });
});
