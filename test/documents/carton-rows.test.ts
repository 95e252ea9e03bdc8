import { describe, expect, it } from 'vitest';
import { cartonRows } from '../../src/server/documents/pdf-flow';

describe('cartonRows (the carton tables of the packing slip and the compliance report)', () => {
  it("puts the carton's own cells on its first SKU line only", () => {
    expect(
      cartonRows(
        ['1', 'SSCC-1', 'PALLET-1'],
        [
          { sku: 'SKU-A', quantity: 6 },
          { sku: 'SKU-B', quantity: 2 },
        ],
      ),
    ).toEqual([
      ['1', 'SSCC-1', 'PALLET-1', 'SKU-A', '6'],
      ['', '', '', 'SKU-B', '2'],
    ]);
  });

  it('gives an empty carton one "(empty)" line, so it still shows', () => {
    expect(cartonRows(['2', '-', 'none'], [])).toEqual([['2', '-', 'none', '(empty)', '0']]);
  });
});
