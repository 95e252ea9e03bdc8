import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { id, ordersBundle } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { createBody, loginAll, logRows, orderRow, setStatus, writer } from './write-support';
import { describeEngines } from '../helpers/engines';

describeEngines('orders change-facility', (engine) => {
  let svc: TestService;
  let api: ReturnType<typeof writer>;
  let counter = 0;
  const code = () => `PS-M${++counter}`;

  beforeAll(async () => {
    svc = await createTestService({ engine, seed: ordersBundle() });
    api = writer(svc, await loginAll(svc));
  });
  afterAll(async () => {
    await svc?.close();
  });

  const detailsOf = (body: { error: unknown }) =>
    (body.error as { details?: unknown }).details as string;
  const ALPHA = id('f', 1);
  const BRAVO = id('f', 2);
  const CHARLIE = id('f', 3);
  const DELTA = id('f', 4);
  const MOVE = 'INGEST_PURCHASE_ORDER_CHANGE';

  async function newOrder(overrides: Record<string, unknown> = {}) {
    const body = createBody({ picksheet_code: code(), ...overrides });
    const response = await api.create('ops@a.test', body);
    if (response.statusCode !== 201) throw new Error(response.body);
    return { orderId: response.json().data.order_id as string, picksheet: body.picksheet_code };
  }

  describe('6. PUT /api/v1/orders/change-facility', () => {
    it('moves an Open order to a facility of its brand, and answers with its id', async () => {
      const { orderId, picksheet } = await newOrder();
      const before = await orderRow(svc, orderId);
      const response = await api.move('admin@a.test', {
        picksheet_code: picksheet,
        facility_id: DELTA,
      });
      // admin@a.test does not see Delta: only ops@a.test can move there.
      expectError(response, 400, 'INVALID_REQUEST', 'Invalid request body');
      const moved = await api.move('ops@a.test', { picksheet_code: picksheet, facility_id: DELTA });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json()).toEqual({
        message: 'Facility changed successfully',
        data: { order_id: orderId },
      });
      const after = await orderRow(svc, orderId);
      expect(after).toEqual({ ...before, facility_id: DELTA, updated_at: after.updated_at });
    });

    it('writes one INGEST_PURCHASE_ORDER_CHANGE row naming the destination and the origin', async () => {
      const { orderId, picksheet } = await newOrder();
      const response = await api.move('ops@a.test', {
        picksheet_code: picksheet,
        facility_id: DELTA,
      });
      const rows = await logRows(svc, orderId, MOVE);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        action_type_label: 'Change order facility',
        brand_id: id('b', 1),
        retailer_id: id('r', 1),
        facility_id: DELTA,
        execution_status: 'SUCCESS',
        request_method: 'PUT',
        request_url: '/api/v1/orders/change-facility',
        response_status: 200,
      });
      expect(JSON.parse(rows[0]?.request_payload ?? '')).toMatchObject({
        picksheet_code: picksheet,
        facility_id: DELTA,
        from_facility_id: ALPHA,
      });
      expect(JSON.parse(rows[0]?.response_body ?? '')).toEqual(response.json());
    });

    it('moves across organisations when the retailer is connected to the brand there', async () => {
      // Brand 1 reaches retailer 1 in org 2 too (connection 4); brand1@a.test sees Alpha and Charlie.
      const { orderId, picksheet } = await newOrder();
      const response = await api.move('brand1@a.test', {
        picksheet_code: picksheet,
        facility_id: CHARLIE,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect((await orderRow(svc, orderId)).facility_id).toBe(CHARLIE);
    });

    it('a Picking order can still move', async () => {
      const { orderId, picksheet } = await newOrder();
      await setStatus(svc, orderId, 'Picking');
      const response = await api.move('ops@a.test', {
        picksheet_code: picksheet,
        facility_id: DELTA,
      });
      expect(response.statusCode, response.body).toBe(200);
    });

    it('to the facility it is at: success, nothing changes, logged as SKIP', async () => {
      const { orderId, picksheet } = await newOrder();
      const before = await orderRow(svc, orderId);
      const response = await api.move('ops@a.test', {
        picksheet_code: picksheet,
        facility_id: ALPHA,
      });
      expect(response.json()).toEqual({
        message: 'Facility changed successfully',
        data: { order_id: orderId },
      });
      expect(await orderRow(svc, orderId)).toEqual(before);
      const rows = await logRows(svc, orderId, MOVE);
      expect(rows.map((r) => r.execution_status)).toEqual(['SKIP']);
    });

    describe('the destination', () => {
      it.each([
        ['unknown', id('f', 99)],
        ["outside the user's facilities", CHARLIE],
      ])('%s: Invalid request body, the same words', async (_case, destination) => {
        const { orderId, picksheet } = await newOrder();
        const body = expectError(
          await api.move('admin@a.test', { picksheet_code: picksheet, facility_id: destination }),
          400,
          'INVALID_REQUEST',
          'Invalid request body',
        );
        expect(detailsOf(body)).toBe('facility_id: no such facility');
        expect((await orderRow(svc, orderId)).facility_id).toBe(ALPHA);
      });

      it('where the brand does not work: refused', async () => {
        const { orderId, picksheet } = await newOrder();
        const body = expectError(
          await api.move('ops@a.test', { picksheet_code: picksheet, facility_id: BRAVO }),
          400,
          'INVALID_REQUEST',
          'Invalid request body',
        );
        expect(detailsOf(body)).toBe("facility_id: the order's brand does not work at Bravo DC");
        expect((await orderRow(svc, orderId)).facility_id).toBe(ALPHA);
      });

      it('where the retailer is not connected to the brand: refused', async () => {
        // Brand 2 works at Charlie, but reaches retailer 2 only in org 1.
        const { orderId, picksheet } = await newOrder({
          brand_id: id('b', 2),
          retailer_id: id('r', 2),
        });
        const body = expectError(
          await api.move('ops@a.test', { picksheet_code: picksheet, facility_id: CHARLIE }),
          400,
          'INVALID_REQUEST',
          'Invalid request body',
        );
        expect(detailsOf(body)).toBe(
          "facility_id: the order's retailer is not connected to its brand at Charlie DC",
        );
        expect((await orderRow(svc, orderId)).facility_id).toBe(ALPHA);
      });

      it('where the picksheet code is taken: 409', async () => {
        const picksheet = code();
        const { orderId } = await newOrder({ picksheet_code: picksheet });
        // The same code at Charlie, for retailer 3: retailer_id tells the two apart.
        await newOrder({
          picksheet_code: picksheet,
          facility_id: CHARLIE,
          retailer_id: id('r', 3),
        });
        const body = expectError(
          await api.move('ops@a.test', {
            picksheet_code: picksheet,
            retailer_id: id('r', 1),
            facility_id: CHARLIE,
          }),
          409,
          'INVALID_REQUEST',
          'Order cannot be moved',
        );
        expect(detailsOf(body)).toBe(`picksheet_code ${picksheet} already exists at Charlie DC`);
        expect((await orderRow(svc, orderId)).facility_id).toBe(ALPHA);
      });

      it('the destination does not narrow the search: two matches ask for brand_id or retailer_id', async () => {
        const picksheet = code();
        const first = await newOrder({ picksheet_code: picksheet });
        const second = await newOrder({ picksheet_code: picksheet, facility_id: DELTA });
        const body = expectError(
          await api.move('ops@a.test', { picksheet_code: picksheet, facility_id: CHARLIE }),
          400,
          'INVALID_REQUEST',
          'Invalid request body',
        );
        expect(detailsOf(body)).toBe(
          `Several orders have picksheet_code ${picksheet}; give brand_id, retailer_id, order_id to pick one`,
        );
        // Same brand and retailer: order_id (beyond the interface) picks one.
        const picked = await api.move('ops@a.test', {
          picksheet_code: picksheet,
          order_id: first.orderId,
          facility_id: CHARLIE,
        });
        expect(picked.json()).toEqual({
          message: 'Facility changed successfully',
          data: { order_id: first.orderId },
        });
        expect((await orderRow(svc, first.orderId)).facility_id).toBe(CHARLIE);
        expect((await orderRow(svc, second.orderId)).facility_id).toBe(DELTA);
      });

      it('required: a move without facility_id is Invalid request body', async () => {
        const { picksheet } = await newOrder();
        const body = expectError(
          await api.move('ops@a.test', { picksheet_code: picksheet }),
          400,
          'INVALID_REQUEST',
          'Invalid request body',
        );
        expect(detailsOf(body)).toContain('facility_id:');
      });
    });

    describe('status rules', () => {
      it.each(['Packed', 'Staged', 'Loaded'])('a %s order cannot move (409)', async (status) => {
        const { orderId, picksheet } = await newOrder();
        await setStatus(svc, orderId, status);
        const body = expectError(
          await api.move('ops@a.test', { picksheet_code: picksheet, facility_id: DELTA }),
          409,
          'INVALID_REQUEST',
          'Order cannot be moved',
        );
        expect(detailsOf(body)).toBe(`Only orders not yet packed can move; the order is ${status}`);
        expect((await orderRow(svc, orderId)).facility_id).toBe(ALPHA);
        const rows = await logRows(svc, orderId, MOVE);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          execution_status: 'FAILURE',
          facility_id: ALPHA,
          response_status: 409,
          error_message: `Order cannot be moved: Only orders not yet packed can move; the order is ${status}`,
        });
      });

      it.each(['Shipped', 'Cancelled'])('a %s order is refused (409)', async (status) => {
        const { orderId, picksheet } = await newOrder();
        await setStatus(svc, orderId, status);
        const body = expectError(
          await api.move('ops@a.test', { picksheet_code: picksheet, facility_id: DELTA }),
          409,
          'INVALID_REQUEST',
          'Order cannot be moved',
        );
        expect(detailsOf(body)).toBe(
          `The order is ${status}; a ${status.toLowerCase()} order cannot change`,
        );
      });
    });

    describe('who may move it', () => {
      it("another brand's order at a facility the user sees answers like an unknown one", async () => {
        const { orderId, picksheet } = await newOrder({
          facility_id: CHARLIE,
          retailer_id: id('r', 3),
        });
        const unknown = await api.move('brand2@b.test', {
          picksheet_code: 'NO-SUCH',
          facility_id: CHARLIE,
        });
        const other = await api.move('brand2@b.test', {
          picksheet_code: picksheet,
          facility_id: CHARLIE,
        });
        expectError(other, 404, 'NOT_FOUND', 'Order not found');
        expect(other.json()).toEqual(unknown.json());
        expect((await orderRow(svc, orderId)).facility_id).toBe(CHARLIE);
        // The refusal is logged without naming the order it did not find.
        expect((await logRows(svc, orderId, MOVE)).length).toBe(0);
        const last = (await logRows(svc, null, MOVE)).at(-1);
        expect(last).toMatchObject({
          execution_status: 'FAILURE',
          order_id: null,
          facility_id: null,
          response_status: 404,
          error_message: 'Order not found',
        });
      });

      it('a user of the same brand with grants only at the destination cannot pull an order there', async () => {
        // charlie1@b.test acts for brand 1 and sees Charlie; the order is at Alpha.
        const { orderId, picksheet } = await newOrder();
        expectError(
          await api.move('charlie1@b.test', { picksheet_code: picksheet, facility_id: CHARLIE }),
          404,
          'NOT_FOUND',
          'Order not found',
        );
        expect((await orderRow(svc, orderId)).facility_id).toBe(ALPHA);
      });
    });

    it('50 parallel moves of one order: all answer 200, one move and 49 SKIP rows', async () => {
      const { orderId, picksheet } = await newOrder();
      const responses = await Promise.all(
        Array.from({ length: 50 }, () =>
          api.move('ops@a.test', { picksheet_code: picksheet, facility_id: DELTA }),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
      expect((await orderRow(svc, orderId)).facility_id).toBe(DELTA);
      const statuses = (await logRows(svc, orderId, MOVE)).map((r) => r.execution_status);
      expect(statuses.filter((s) => s === 'SUCCESS')).toHaveLength(1);
      expect(statuses.filter((s) => s === 'SKIP')).toHaveLength(49);
    });
  });
});
