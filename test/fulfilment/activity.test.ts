/**
 * Recorded activity: actions (VAS, carton and pallet work) through the API, and `activity` of
 * seed-bundle orders (imported, replaced on a second import, bad references refused).
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { importSeedBundle, SeedError } from '../../src/server/seed/seed';
import type { FulfilmentView, StepResult } from '../../src/shared/fulfilment';
import { dataOf, fulfilmentBundle, fulfilmentService, ORDERS } from './support';

const floor = fulfilmentService(['packer@a.test']);
const api = floor.as('packer@a.test');

const actions = (orderId: string, payload: unknown) =>
  api.call('POST', `/api/v1/orders/${orderId}/actions`, payload);

describe('POST /api/v1/orders/{order_id}/actions', () => {
  it('records a VAS with a count (default 1) and carton work naming a carton', async () => {
    const vas = await actions(ORDERS.freight, { action_type: 'VAS', metric: 'Kitting', count: 12 });
    expect(vas.statusCode, vas.body).toBe(201);
    expect(vas.json()).toMatchObject({
      message: 'Action recorded',
      data: {
        kind: 'ACTION',
        action_type: 'VAS',
        metric: 'Kitting',
        count: 12,
        carton_id: null,
        pallet_id: null,
        sscc: null,
      },
    });
    const carton = dataOf<StepResult>(
      await api.pack(ORDERS.freight, { skus: [{ sku: 'SKU-BLUE', quantity: 1 }] }),
    ).carton!;
    const work = await actions(ORDERS.freight, {
      action_type: 'Carton Workflow',
      metric: 'Labelling',
      carton_id: carton.id,
    });
    expect(dataOf(work)).toMatchObject({ count: 1, carton_id: carton.id, sscc: carton.sscc });
    const view = dataOf<FulfilmentView>(await api.view(ORDERS.freight));
    expect(view.activity.map((a) => [a.action_type, a.metric, a.count])).toEqual([
      ['VAS', 'Kitting', 12],
      ['Carton Workflow', 'Pack', 1],
      ['Carton Workflow', 'Labelling', 1],
    ]);
    const log = await floor.svc.ctx.db
      .selectFrom('transactions')
      .select('action_type')
      .where('order_id', '=', ORDERS.freight)
      .where('action_type', '=', 'RECORD_ACTION')
      .execute();
    expect(log).toHaveLength(2);
  });

  it('refuses unknown action types, counts below 1, and cartons of other orders', async () => {
    for (const bad of [
      { action_type: 'Dance', metric: 'Pack' },
      { action_type: 'VAS', metric: 'Kitting', count: 0 },
      { action_type: 'VAS', metric: '' },
    ]) {
      expectError(
        await actions(ORDERS.freight, bad),
        400,
        'INVALID_REQUEST',
        'Invalid request body',
      );
    }
    expectError(
      await actions(ORDERS.freight, {
        action_type: 'Pallet Workflow',
        metric: 'Wrap',
        pallet_id: ORDERS.parcel,
      }),
      404,
      'NOT_FOUND',
      'Pallet not found',
    );
  });

  it('60 parallel actions are all recorded', async () => {
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        actions(ORDERS.parcel, { action_type: 'VAS', metric: `Task ${i % 3}`, count: 2 }),
      ),
    );
    expect(responses.every((r) => r.statusCode === 201)).toBe(true);
    const view = dataOf<FulfilmentView>(await api.view(ORDERS.parcel));
    expect(view.activity.reduce((total, a) => total + a.count, 0)).toBe(120);
  });
});

describe('activity of seed-bundle orders', () => {
  const CARTON = '2c000000-0000-4000-8000-000000000001';
  const PALLET = '1c000000-0000-4000-8000-000000000001';

  function bundleWith(activity: unknown[]) {
    const bundle = fulfilmentBundle();
    const [first] = bundle.orders;
    return {
      ...bundle,
      orders: [
        {
          ...first!,
          status: 'Packed',
          packed_at: '2026-11-03T12:00:00.000Z',
          pallets: [
            {
              id: PALLET,
              sscc: '106141410000009990',
              status: 'Open',
              created_at: '2026-11-03T11:00:00.000Z',
              cartons: [
                {
                  id: CARTON,
                  sscc: '006141410000009992',
                  created_at: '2026-11-03T10:00:00.000Z',
                  skus: [{ sku: 'SKU-RED', quantity: 12 }],
                },
              ],
            },
          ],
          activity,
        },
      ],
    };
  }

  const stored = () =>
    floor.svc.ctx.db
      .selectFrom('order_activity')
      .selectAll()
      .where('order_id', '=', ORDERS.freight)
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  it('imports entries with stable ids, SSCCs of the cartons and pallets named, and times', async () => {
    const activity = [
      { kind: 'LABEL_PRINT', metric: 'Carton Label Printed - GS1 Label', carton_id: CARTON },
      {
        kind: 'LABEL_PRINT',
        metric: 'Pallet Label Printed - GS1 Label',
        pallet_id: PALLET,
        at: '2026-11-03T13:00:00Z',
      },
      { kind: 'PACKING_SLIP', count: 2 },
      { kind: 'ACTION', action_type: 'VAS', metric: 'Labelling', count: 24 },
    ];
    await importSeedBundle(floor.svc.ctx.db, bundleWith(activity), {
      passwordCost: floor.svc.ctx.passwordCost,
    });
    const rows = await stored();
    const byMetric = (a: unknown[], b: unknown[]) => String(a[2]).localeCompare(String(b[2]));
    expect(
      rows
        .map((r) => [r.kind, r.action_type, r.metric, r.count, r.sscc, r.created_at])
        .sort(byMetric),
    ).toEqual([
      [
        'LABEL_PRINT',
        null,
        'Carton Label Printed - GS1 Label',
        1,
        '006141410000009992',
        '2026-11-03T12:00:00.000Z',
      ],
      ['ACTION', 'VAS', 'Labelling', 24, null, '2026-11-03T12:00:00.000Z'],
      ['PACKING_SLIP', null, 'Packing Slips', 2, null, '2026-11-03T12:00:00.000Z'],
      [
        'LABEL_PRINT',
        null,
        'Pallet Label Printed - GS1 Label',
        1,
        '106141410000009990',
        '2026-11-03T13:00:00.000Z',
      ],
    ]);
    // Importing again changes nothing; a shorter list replaces the stored one.
    await importSeedBundle(floor.svc.ctx.db, bundleWith(activity), {
      passwordCost: floor.svc.ctx.passwordCost,
    });
    expect(await stored()).toEqual(rows);
    await importSeedBundle(floor.svc.ctx.db, bundleWith(activity.slice(2, 3)), {
      passwordCost: floor.svc.ctx.passwordCost,
    });
    expect((await stored()).map((r) => r.kind)).toEqual(['PACKING_SLIP']);
  });

  it('refuses an entry naming a carton of no pallet of the order, or an unknown metric', async () => {
    const options = { passwordCost: floor.svc.ctx.passwordCost };
    await expect(
      importSeedBundle(
        floor.svc.ctx.db,
        bundleWith([{ kind: 'ACTION', action_type: 'VAS', metric: 'X', carton_id: PALLET }]),
        options,
      ),
    ).rejects.toThrow(`orders[0].activity[0].carton_id: '${PALLET}' is not a carton of this order`);
    await expect(
      importSeedBundle(
        floor.svc.ctx.db,
        bundleWith([{ kind: 'LABEL_PRINT', metric: 'Stickers' }]),
        options,
      ),
    ).rejects.toThrow(SeedError);
  });
});
