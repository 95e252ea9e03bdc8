/**
 * The demo workspace's fulfilment data: every brand has a GS1 company prefix, each SSCC carries
 * its brand's prefix, and orders packed or later have label prints, packing slips and actions.
 */
import { describe, expect, it } from 'vitest';
import demoWorkspace from '../../resources/demo-workspace.json';
import { isValidSscc } from '../../src/server/fulfilment/sscc';
import { parseSeedBundle } from '../../src/server/seed/seed';

const bundle = parseSeedBundle(demoWorkspace);
const prefixOf = new Map((bundle.brands ?? []).map((b) => [b.brand_id, b.gs1_company_prefix]));

describe('demo workspace fulfilment', () => {
  it('every brand has a GS1 company prefix', () => {
    for (const brand of bundle.brands ?? []) expect(brand.gs1_company_prefix).toMatch(/^\d{7,10}$/);
  });

  it("SSCCs start with their extension digit and the order's brand prefix", () => {
    for (const order of bundle.orders ?? []) {
      const prefix = prefixOf.get(order.brand_id)!;
      for (const pallet of order.pallets) {
        expect(pallet.sscc).toMatch(new RegExp(`^1${prefix}`));
        expect(isValidSscc(pallet.sscc!)).toBe(true);
        for (const carton of pallet.cartons) {
          expect(carton.sscc).toMatch(new RegExp(`^0${prefix}`));
          expect(isValidSscc(carton.sscc!)).toBe(true);
        }
      }
    }
  });

  it('packed or later orders have a Pack action and a label per carton, a slip, and VAS somewhere', () => {
    const packed = (bundle.orders ?? []).filter((o) =>
      ['Packed', 'Staged', 'Loaded', 'Shipped'].includes(o.status),
    );
    expect(packed.length).toBeGreaterThan(4);
    for (const order of packed) {
      const cartons = order.pallets.flatMap((p) => p.cartons.map((c) => c.id));
      const packs = order.activity.filter((a) => a.kind === 'ACTION' && a.metric === 'Pack');
      expect(packs.map((a) => (a.kind === 'ACTION' ? a.carton_id : null)).sort()).toEqual(
        [...cartons].sort(),
      );
      const cartonLabels = order.activity.filter(
        (a) => a.kind === 'LABEL_PRINT' && a.metric === 'Carton Label Printed - GS1 Label',
      );
      expect(cartonLabels.length).toBeGreaterThanOrEqual(cartons.length);
      expect(order.activity.some((a) => a.kind === 'PACKING_SLIP')).toBe(true);
    }
    const vas = packed.flatMap((o) =>
      o.activity.filter((a) => a.kind === 'ACTION' && a.action_type === 'VAS'),
    );
    expect(vas.length).toBeGreaterThanOrEqual(3);
  });
});
