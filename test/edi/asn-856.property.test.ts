/**
 * Properties of the 856 (src/server/edi/asn-856.ts) over random packed orders, parcel or on
 * pallets: its SSCCs are exactly the order's, SN1 sums equal the packed quantities per SKU, and
 * the HL parents form a valid SOTPI (with pallets) or SOPI (without) tree with CTT01 = HL count.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { build856, type AsnFacts } from '../../src/server/edi/asn-856';
import { writeInterchange } from '../../src/server/edi/x12/writer';
import { ediSettings, parcelOrder, ssccOf } from './asn-fixtures';

const SKUS = ['A-1', 'B*2', 'C~3', 'D>4', 'E 5'];

const packedOrder = fc
  .record({
    palletCount: fc.integer({ min: 0, max: 4 }),
    cartons: fc.array(
      fc.record({
        palletPick: fc.nat(),
        lines: fc.array(
          fc.record({
            sku: fc.constantFrom(...SKUS),
            upc: fc.option(fc.constantFrom('012345678905', '036000291452'), { nil: null }),
            quantity: fc.integer({ min: 1, max: 500 }),
          }),
          { minLength: 1, maxLength: 5 },
        ),
      }),
      { minLength: 1, maxLength: 12 },
    ),
  })
  .map(({ palletCount, cartons }): AsnFacts => {
    const pallets = Array.from({ length: palletCount }, (_, i) => ({
      id: `p${i}`,
      sscc: ssccOf(1, 1000 + i),
      weight: null,
      weight_unit: null,
    }));
    return {
      ...parcelOrder,
      transportationMethod: palletCount > 0 ? 'LTL' : 'PARCEL',
      pallets,
      cartons: cartons.map((carton, i) => ({
        id: `c${i}`,
        sscc: ssccOf(0, 2000 + i),
        pallet_id: palletCount > 0 ? `p${carton.palletPick % palletCount}` : null,
        parcel_tracking_number: null,
        weight: null,
        weight_unit: null,
        lines: carton.lines,
      })),
    };
  });

/** Splits the interchange with the separators its own ISA declares. */
function segmentsOf(text: string): string[][] {
  const element = text[3]!;
  const terminator = text[105]!;
  return text
    .split(terminator)
    .filter((s) => s !== '')
    .map((s) => s.split(element));
}

describe('856 properties', () => {
  it('SSCCs, SN1 sums and the HL tree match the packed order', () => {
    fc.assert(
      fc.property(packedOrder, (facts) => {
        const text = writeInterchange({
          edi: ediSettings,
          functionalId: 'SH',
          interchangeControlNumber: 1,
          groupControlNumber: 1,
          createdAt: facts.createdAt,
          transactionSets: [build856(facts)],
        }).text;
        const segments = segmentsOf(text);

        const marks = segments.filter((s) => s[0] === 'MAN').map((s) => s[2]);
        const ssccs = [...facts.pallets, ...facts.cartons].map((u) => `00${u.sscc}`);
        expect([...marks].sort()).toEqual([...ssccs].sort());
        expect(new Set(marks).size).toBe(marks.length);

        const shipped = new Map<string, number>();
        let currentSku = '';
        for (const s of segments) {
          if (s[0] === 'LIN') currentSku = s[s.indexOf('VN') + 1]!;
          if (s[0] === 'SN1')
            shipped.set(currentSku, (shipped.get(currentSku) ?? 0) + Number(s[2]));
        }
        const packed = new Map<string, number>();
        for (const line of facts.cartons.flatMap((c) => c.lines)) {
          packed.set(line.sku, (packed.get(line.sku) ?? 0) + line.quantity);
        }
        expect(shipped).toEqual(packed);

        const hls = segments.filter((s) => s[0] === 'HL');
        const levelOf = new Map<string, string>();
        const parentLevel: Record<string, string[]> =
          facts.pallets.length > 0
            ? { O: ['S'], T: ['O'], P: ['T'], I: ['P'] }
            : { O: ['S'], P: ['O'], I: ['P'] };
        hls.forEach(([, id, parent, level], index) => {
          expect(id).toBe(String(index + 1));
          if (index === 0) {
            expect([parent, level]).toEqual(['', 'S']);
          } else {
            expect(parentLevel[level!]).toContain(levelOf.get(parent!));
          }
          levelOf.set(id!, level!);
        });
        const count = (level: string) => [...levelOf.values()].filter((l) => l === level).length;
        expect(count('T')).toBe(facts.pallets.length);
        expect(count('P')).toBe(facts.cartons.length);
        expect(segments.find((s) => s[0] === 'CTT')?.[1]).toBe(String(hls.length));
        const st = segments.findIndex((s) => s[0] === 'ST');
        const se = segments.findIndex((s) => s[0] === 'SE');
        expect(segments[se]![1]).toBe(String(se - st + 1));
      }),
      { numRuns: 200 },
    );
  });
});
