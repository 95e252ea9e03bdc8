/**
 * Scope of the packing routes (every fulfilment step, the packing read) and the order's documents
 * (labels, one label, print, packing slip, compliance report) on both engines, on a parcel order
 * of brand 1 at Alpha with a real carton and pallet. A user of brand 1 at Delta (organisation 1,
 * an admin there), of brand 1 at Charlie (organisation 2, an admin there), or of brand 2 at Alpha
 * itself (an admin of brand 2 there) gets 404 `Order not found`, and nothing is written.
 */
import { expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { dataOf, fulfilmentBundle, ORDERS } from '../fulfilment/support';
import { describeEngines } from '../helpers/engines';
import { signedInService } from '../helpers/signed-in';
import { callAs, ORDER_OUTSIDERS as OUTSIDERS, withOutsiders } from './support';

const PACKER = 'packer@a.test';
type User = typeof PACKER | (typeof OUTSIDERS)[number];

describeEngines('scope: packing and order documents', (engine) => {
  const api = signedInService<User>([PACKER, ...OUTSIDERS], () => ({
    seed: withOutsiders(fulfilmentBundle()),
    engine,
  }));
  const call = callAs<User>(() => api.svc, api.headers);
  const order = `/api/v1/orders/${ORDERS.parcel}`;
  let cartonId = '';
  let palletId = '';

  const written = async () => {
    const db = api.svc.ctx.db;
    const [orders, cartons, pallets, logs] = await Promise.all([
      db.selectFrom('orders').select(['id', 'status', 'updated_at']).orderBy('id').execute(),
      db
        .selectFrom('cartons')
        .select(['id', 'pallet_id', 'packing_complete_at'])
        .orderBy('id')
        .execute(),
      db.selectFrom('pallets').select(['id', 'status']).orderBy('id').execute(),
      db.selectFrom('transactions').select('transaction_id').execute(),
    ]);
    return { orders, cartons, pallets, logs: logs.length };
  };

  it('the order’s own user picks, packs a carton and puts it on a pallet (the fixture is real)', async () => {
    expect((await call(PACKER, 'POST', `${order}/start-picking`)).statusCode).toBe(200);
    const packed = await call(PACKER, 'POST', `${order}/cartons`, {
      skus: [{ sku: 'SKU-RED', quantity: 2 }],
    });
    expect(packed.statusCode, packed.body).toBe(201);
    cartonId = dataOf<{ carton: { id: string } }>(packed).carton.id;
    const pallet = await call(PACKER, 'POST', `${order}/pallets`, { carton_ids: [cartonId] });
    expect(pallet.statusCode, pallet.body).toBe(201);
    palletId = dataOf<{ pallet: { id: string } }>(pallet).pallet.id;
    expect((await call(PACKER, 'GET', `${order}/labels`)).statusCode).toBe(200);
  });

  it.each(OUTSIDERS)(
    '%s: every packing and document route answers 404; nothing written',
    async (user) => {
      const before = await written();
      const refused: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: object][] = [
        ['GET', 'fulfilment'],
        ['POST', 'start-picking'],
        ['POST', 'cartons', { skus: [{ sku: 'SKU-RED', quantity: 1 }] }],
        ['POST', 'cartons/open'],
        ['POST', 'scan', { code: 'SKU-RED' }],
        ['POST', `cartons/${cartonId}/close`],
        ['DELETE', `cartons/${cartonId}`],
        ['PUT', `cartons/${cartonId}/pallet`, { pallet_id: null }],
        ['POST', 'pallets', { carton_ids: [cartonId] }],
        ['DELETE', `pallets/${palletId}`],
        ['POST', 'complete-packing'],
        ['POST', 'reopen-packing'],
        ['POST', 'stage'],
        ['POST', 'load'],
        ['POST', 'ship'],
        ['POST', 'cancel'],
        ['POST', 'actions', { action_type: 'VAS', metric: 'Ticketing', count: 1 }],
        ['GET', 'labels'],
        ['GET', `labels/cartons/${cartonId}`],
        ['GET', `labels/pallets/${palletId}`],
        ['POST', 'labels/print', { kind: 'gs1', units: 'cartons' }],
        ['GET', 'packing-slip'],
      ];
      for (const [method, path, body] of refused) {
        const response = await call(user, method, `${order}/${path}`, body);
        expectError(response, 404, 'NOT_FOUND', 'Order not found');
      }
      expectError(
        await call(user, 'GET', `/api/orders/compliance_report/binary/${ORDERS.parcel}`),
        404,
        'NOT_FOUND',
      );
      expect(await written()).toEqual(before);
    },
  );
});
