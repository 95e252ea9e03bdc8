/**
 * Scan-to-pack at the packing station: a scan opens a carton when none is open, matches the
 * order line by SKU, UPC or case barcode, keeps serials; closing, measures and the packing read.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import type { FulfilmentView, StepResult } from '../../src/shared/fulfilment';
import { dataOf, fulfilmentService, ORDERS } from './support';

const floor = fulfilmentService(['packer@a.test']);
const api = floor.as('packer@a.test');
const order = ORDERS.freight;

const view = async () => dataOf<FulfilmentView>(await api.view(order));

describe('scanning units into the open carton', () => {
  let cartonId: string;

  it('the first scan of an Open order starts picking and opens a carton', async () => {
    const response = await api.scan(order, 'SKU-RED');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('Unit packed');
    const result = dataOf<StepResult>(response);
    expect(result.status).toBe('Picking');
    cartonId = result.carton!.id;
    expect(result.carton).toMatchObject({ packing_complete_at: null, units: 1 });
    const state = await view();
    expect(state.started_at).toMatch(/Z$/);
    expect(state.open_carton?.id).toBe(cartonId);
  });

  it('matches by UPC (one unit) and by case barcode (a case of case_pack_quantity)', async () => {
    await api.scan(order, '012345678912'); // SKU-BLUE by UPC
    const response = await api.scan(order, '10012345678902'); // a case of 6 SKU-RED
    const carton = dataOf<StepResult>(response).carton!;
    expect(carton.id).toBe(cartonId);
    expect(carton.skus.map((s) => [s.sku, s.quantity])).toEqual([
      ['SKU-BLUE', 1],
      ['SKU-RED', 7],
    ]);
  });

  it('keeps serial numbers; the same serial twice in a carton is refused', async () => {
    const response = await api.scan(order, 'SKU-BLUE', { serial_number: 'SN-9' });
    expect(dataOf<StepResult>(response).carton!.skus[0]).toMatchObject({
      quantity: 2,
      serial_numbers: ['SN-9'],
    });
    expectError(
      await api.scan(order, 'SKU-BLUE', { serial_number: 'SN-9' }),
      409,
      'INVALID_REQUEST',
      'Serial number SN-9 is already in this carton',
    );
    expectError(
      await api.scan(order, '10012345678902', { serial_number: 'SN-10' }),
      400,
      'INVALID_REQUEST',
      'A serial number goes with one unit; scan the unit, not its case',
    );
  });

  it('refuses codes not on the order and units beyond the ordered quantity', async () => {
    expectError(
      await api.scan(order, 'NOPE'),
      400,
      'INVALID_REQUEST',
      'NOPE is not a SKU, UPC or case barcode of this order',
    );
    expectError(
      await api.scan(order, '10012345678902'),
      409,
      'INVALID_REQUEST',
      'Cannot pack more than ordered: SKU-RED would be 13 of 12 ordered. Only the ordered quantity can be packed.',
    );
    expectError(await api.scan(order, ''), 400, 'INVALID_REQUEST', 'Invalid request body');
  });

  it('a second open carton is refused while one is open', async () => {
    expectError(
      await api.step(order, 'cartons/open'),
      409,
      'INVALID_REQUEST',
      /^Carton 0\d{17} is already open; close it first$/,
    );
  });

  it('the open carton blocks completing packing and palletising', async () => {
    expect((await view()).missing).toEqual([
      '1 carton still open',
      '6 ordered units not packed (complete with allow_short to ship short)',
    ]);
    expectError(
      await api.pallet(order, { carton_ids: [cartonId] }),
      409,
      'INVALID_REQUEST',
      /^Carton 0\d{17} is still open; close it before palletising$/,
    );
  });

  it('closes the carton with measures and records its Pack action; closing twice is refused', async () => {
    const url = `cartons/${cartonId}/close`;
    const response = await api.step(order, url, { weight_unit: 'kg', weight: 4.2 });
    expect(response.statusCode, response.body).toBe(200);
    const carton = dataOf<StepResult>(response).carton!;
    expect(carton).toMatchObject({ weight_unit: 'kg', weight: 4.2, units: 9 });
    expect(carton.packing_complete_at).toMatch(/Z$/);
    expectError(
      await api.step(order, url),
      409,
      'INVALID_REQUEST',
      `Carton ${carton.sscc} is already closed`,
    );
    const state = await view();
    expect(state.open_carton).toBeNull();
    expect(state.activity.map((a) => [a.metric, a.carton_id])).toEqual([['Pack', cartonId]]);
  });

  it('an explicitly opened carton that stays empty cannot be closed, only unpacked', async () => {
    const opened = await api.step(order, 'cartons/open', { dim_unit: 'cm', height: 30 });
    expect(opened.statusCode, opened.body).toBe(201);
    const carton = dataOf<StepResult>(opened).carton!;
    expect(carton).toMatchObject({ dim_unit: 'cm', height: 30, units: 0 });
    expectError(
      await api.step(order, `cartons/${carton.id}/close`),
      409,
      'INVALID_REQUEST',
      `Carton ${carton.sscc} is empty; unpack it instead`,
    );
    expect((await api.unpack(order, carton.id)).statusCode).toBe(200);
    expect((await view()).cartons.map((c) => c.id)).toEqual([cartonId]);
  });

  it('the next scan opens a new carton; lines show ordered and packed units', async () => {
    const response = await api.scan(order, 'SKU-RED');
    expect(dataOf<StepResult>(response).carton!.id).not.toBe(cartonId);
    const state = await view();
    expect(state.cartons).toHaveLength(2);
    expect(state.lines).toEqual([
      {
        line_number: 0,
        sku: 'SKU-RED',
        upc: '012345678905',
        case_barcode: '10012345678902',
        case_pack_quantity: 6,
        description: null,
        ordered_quantity: 12,
        packed_quantity: 8,
        remaining_quantity: 4,
      },
      {
        line_number: 1,
        sku: 'SKU-BLUE',
        upc: '012345678912',
        case_barcode: null,
        case_pack_quantity: null,
        description: null,
        ordered_quantity: 3,
        packed_quantity: 2,
        remaining_quantity: 1,
      },
    ]);
  });
});

describe('the ordered quantity under parallel scans', () => {
  it('60 parallel scans of a 2-unit line pack exactly 2 units into one open carton', async () => {
    const responses = await Promise.all(
      Array.from({ length: 60 }, () => api.scan(ORDERS.parcel, 'SKU-RED')),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 409)).toHaveLength(58);
    const state = dataOf<FulfilmentView>(await api.view(ORDERS.parcel));
    expect(state.cartons).toHaveLength(1);
    expect(state.open_carton?.units).toBe(2);
    expect(state.lines[0]).toMatchObject({ packed_quantity: 2, remaining_quantity: 0 });
  });
});
