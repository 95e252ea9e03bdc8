/**
 * Who may take fulfilment steps and set a brand's GS1 prefix: any user who sees the order packs
 * it (no admin grant needed); another tenant's order, including one of the same brand at a
 * facility the user does not have, answers 404 exactly like an unknown one.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { id } from '../helpers/fixtures';
import type { StepResult } from '../../src/shared/fulfilment';
import { dataOf, fulfilmentService, ORDERS } from './support';
import { describeEngines } from '../helpers/engines';

describeEngines('fulfilment permissions', (engine) => {
  const USERS = [
    'packer@a.test',
    'admin@a.test',
    'brand1@a.test',
    'brand2@b.test',
    'charlie1@b.test',
    'viewer@a.test',
  ];

  const floor = fulfilmentService(USERS, engine);
  const { as } = floor;

  describe('fulfilment steps and the packing read', () => {
    it('a user with a grant of the same brand at another facility gets 404 Order not found', async () => {
      // charlie1: brand 1 (the order's brand), admin at facility 3 only; the order is at facility 1.
      const charlie = as('charlie1@b.test');
      expectError(await charlie.view(ORDERS.freight), 404, 'NOT_FOUND', 'Order not found');
      expectError(
        await charlie.scan(ORDERS.freight, 'SKU-RED'),
        404,
        'NOT_FOUND',
        'Order not found',
      );
      expectError(
        await charlie.step(ORDERS.freight, 'cancel'),
        404,
        'NOT_FOUND',
        'Order not found',
      );
      // Its own facility's order it may pack.
      expect((await charlie.scan(ORDERS.charlie, 'SKU-RED')).statusCode).toBe(200);
    });

    it("another brand's credentials at the order's facility get 404; nothing was written", async () => {
      // brand2: acts for brand 2; the order is brand 1's.
      expectError(
        await as('brand2@b.test').step(ORDERS.freight, 'start-picking'),
        404,
        'NOT_FOUND',
        'Order not found',
      );
      const rows = await floor.svc.ctx.db
        .selectFrom('transactions')
        .select('transaction_id')
        .where('order_id', '=', ORDERS.freight)
        .execute();
      expect(rows).toEqual([]);
    });

    it('a user who sees the order packs it without an admin grant', async () => {
      const response = await as('viewer@a.test').pack(ORDERS.freight, {
        skus: [{ sku: 'SKU-RED', quantity: 1 }],
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(dataOf<StepResult>(response).carton!.packed_by).toBe('viewer@a.test');
    });

    it('a brand without a GS1 company prefix cannot get SSCCs: 409 telling the admin to set it', async () => {
      expectError(
        await as('packer@a.test').scan(ORDERS.noPrefix, 'SKU-RED'),
        409,
        'INVALID_REQUEST',
        `Brand Brand Two has no GS1 company prefix; an admin of the brand sets it (PUT /api/v1/brands/${id('b', 2)}/gs1-prefix) before cartons and pallets get SSCCs`,
      );
      // Nothing of the step stayed: the order is still Open.
      const view = dataOf<{ status: string; cartons: unknown[] }>(
        await as('packer@a.test').view(ORDERS.noPrefix),
      );
      expect(view).toMatchObject({ status: 'Open', cartons: [] });
    });
  });

  describe('PUT /api/v1/brands/{brand_id}/gs1-prefix', () => {
    const put = (email: string, brandId: string, payload: unknown) =>
      as(email).call('PUT', `/api/v1/brands/${brandId}/gs1-prefix`, payload);

    it('an admin of the brand sets it; new SSCCs use it', async () => {
      // admin@a.test: brand-less, admin for brand 1 at facility 1; sees brand 2 (works at facility 1)
      // but holds no grant for it.
      expectError(
        await put('admin@a.test', id('b', 2), { gs1_company_prefix: '0614999' }),
        403,
        'UNAUTHORIZED',
        'Unauthorized',
      );
      const response = await put('admin@a.test', id('b', 1), { gs1_company_prefix: '0123456789' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        message: 'GS1 company prefix saved',
        data: { brand_id: id('b', 1), gs1_company_prefix: '0123456789' },
      });
      const packed = dataOf<StepResult>(
        await as('packer@a.test').pack(ORDERS.parcel, { skus: [{ sku: 'SKU-RED', quantity: 1 }] }),
      );
      expect(packed.carton!.sscc).toMatch(/^00123456789\d{7}$/);
    });

    it('a user with no admin grant gets 403; a brand the user does not see 404', async () => {
      expectError(
        await put('viewer@a.test', id('b', 1), { gs1_company_prefix: '0614141' }),
        403,
        'UNAUTHORIZED',
        'Unauthorized',
      );
      // charlie1 acts for brand 1: brand 2 answers as if it did not exist.
      expectError(
        await put('charlie1@b.test', id('b', 2), { gs1_company_prefix: '0614141' }),
        404,
        'NOT_FOUND',
        'Brand not found',
      );
      expectError(
        await put('admin@a.test', '0b000000-0000-4000-8000-000000000099', {
          gs1_company_prefix: '0614141',
        }),
        404,
        'NOT_FOUND',
        'Brand not found',
      );
    });

    it("an admin grant for the brand at another facility than the brand's orders also sets it", async () => {
      // charlie1: admin for brand 1 at facility 3 only (the freight order is at facility 1).
      const response = await put('charlie1@b.test', id('b', 1), { gs1_company_prefix: '0614141' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toEqual({
        brand_id: id('b', 1),
        gs1_company_prefix: '0614141',
      });
    });

    it('refuses a prefix that is not 7 to 10 digits', async () => {
      for (const prefix of ['123456', '12345678901', '06141A1', 614141]) {
        const body = expectError(
          await put('admin@a.test', id('b', 1), { gs1_company_prefix: prefix }),
          400,
          'INVALID_REQUEST',
          'Invalid request body',
        );
        expect(JSON.stringify(body)).toMatch(/gs1_company_prefix/);
      }
    });
  });
});
