/**
 * The ordered quantity as a limit under 60 parallel scans on both engines (test/fulfilment/scan
 * runs it on SQLite): a 2-unit line takes exactly 2 units, the other 58 scans are refused.
 */
import { expect, it } from 'vitest';
import type { FulfilmentView } from '../../src/shared/fulfilment';
import { describeEngines } from '../helpers/engines';
import { dataOf, fulfilmentService, ORDERS } from '../fulfilment/support';

describeEngines('the ordered quantity under 60 parallel scans', (engine) => {
  const floor = fulfilmentService(['packer@a.test'], engine);

  it('60 scans of a 2-unit line at once: 2 packed into one open carton, 58 refused with 409', async () => {
    const api = floor.as('packer@a.test');
    const responses = await Promise.all(
      Array.from({ length: 60 }, () => api.scan(ORDERS.parcel, 'SKU-RED')),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 409)).toHaveLength(58);
    for (const refused of responses.filter((r) => r.statusCode === 409)) {
      expect(refused.json()).toMatchObject({
        message:
          'Cannot pack more than ordered: SKU-RED would be 3 of 2 ordered. Only the ordered quantity can be packed.',
        error: { code: 'INVALID_REQUEST' },
      });
    }
    const state = dataOf<FulfilmentView>(await api.view(ORDERS.parcel));
    expect(state.cartons).toHaveLength(1);
    expect(state.open_carton?.units).toBe(2);
    expect(state.lines[0]).toMatchObject({ packed_quantity: 2, remaining_quantity: 0 });
  });
});
