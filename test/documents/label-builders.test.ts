import bwipjs from 'bwip-js/node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildLabelsPdf } from '../../src/server/documents/label-pdf';
import { buildLabelsZpl, zplFieldData } from '../../src/server/documents/label-zpl';
import {
  labelMetric,
  ssccDigitalLink,
  type LabelRequest,
  type LabelUnit,
} from '../../src/server/documents/label-model';
import { winAnsi } from '../../src/server/documents/pdf-kit';
import { gs1CheckDigit, ssccProblem } from '../../src/server/documents/sscc-check';
import { isValidSscc } from '../../src/server/fulfilment/sscc';
import { LABEL_PRINT_METRICS } from '../../src/shared/fulfilment-activity';
import { loadPdf, pageOperators, pageText, sscc } from './fixtures';

const AT = new Date('2026-01-07T12:00:00.000Z');

const shipment: LabelRequest['shipment'] = {
  shipFrom: ['Brand One', 'c/o Alpha DC', 'Facility ALP'],
  shipTo: ['Retailer DC 7', '1 Dock Road', 'Reno, NV 89501', 'US'],
  shipToZip: '89501',
  dcNumber: '0007',
  poNumber: 'PO-7001',
  picksheetCode: 'PS-7001',
  deptNumber: '42',
  carrier: 'XPO Logistics',
  proNumber: 'PRO-1',
  bolNumber: 'BOL-1',
  retailerName: 'Retailer One',
};

const unit = (n: number, kind: 'carton' | 'pallet' = 'carton'): LabelUnit => ({
  unit: kind,
  id: `2d000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  sscc: sscc(n),
  sequence: n,
  total: 3,
  contents: [
    { sku: 'SKU-A', quantity: 4 },
    { sku: 'SKU-B', quantity: 2 },
  ],
  cartonCount: kind === 'pallet' ? 2 : null,
  units: 6,
});

describe('SSCC check digit', () => {
  it('accepts GS1 examples and names what is wrong with bad ones', () => {
    // GS1's SSCC example: extension 1, company prefix 0614141, serial 123456789, check digit 7.
    expect(gs1CheckDigit('10614141123456789')).toBe(7);
    expect(isValidSscc('106141411234567897')).toBe(true);
    expect(isValidSscc('006141410000000012')).toBe(true);
    expect(ssccProblem('006141410000000025')).toBe(
      'SSCC 006141410000000025 has check digit 5, expected 9',
    );
    expect(ssccProblem('12345')).toBe('SSCC 12345 is not 18 digits');
    expect(ssccProblem(null)).toBe('no SSCC');
    expect(ssccProblem('')).toBe('no SSCC');
  });

  it('agrees with bwip-js: a valid SSCC encodes, any one changed digit is refused', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{17}$/), fc.integer({ min: 0, max: 17 }), (body, at) => {
        const valid = `${body}${gs1CheckDigit(body)}`;
        expect(isValidSscc(valid)).toBe(true);
        expect(ssccProblem(valid)).toBeNull();
        expect(() => bwipjs.raw({ bcid: 'gs1-128', text: `(00)${valid}` })).not.toThrow();
        const digit = Number(valid[at]);
        const changed = `${valid.slice(0, at)}${(digit + 1 + (at % 8)) % 10}${valid.slice(at + 1)}`;
        expect(isValidSscc(changed)).toBe(false);
        expect(ssccProblem(changed)).toMatch(/has check digit/);
      }),
      { numRuns: 40 },
    );
  });
});

describe('label PDF', () => {
  it('has one 4 x 6 in page (288 x 432 pt) per unit, the SSCCs in text and metadata', async () => {
    const units = [unit(1), unit(2), unit(3, 'pallet')];
    const doc = await loadPdf(await buildLabelsPdf({ kind: 'gs1', shipment, units }, AT));
    expect(doc.getPageCount()).toBe(3);
    for (const page of doc.getPages()) expect(page.getSize()).toEqual({ width: 288, height: 432 });
    expect(doc.getSubject()).toBe(units.map((u) => `(00) ${u.sscc}`).join(', '));
    expect(doc.getKeywords()).toBe(units.map((u) => u.sscc).join(' '));
    expect(doc.getCreationDate()?.toISOString()).toBe(AT.toISOString());
    units.forEach((u, i) => {
      const text = pageText(doc.getPage(i));
      expect(text).toContain(`(00) ${u.sscc}`);
      expect(text).toContain('PO-7001');
      expect(text).toContain('Retailer DC 7');
      expect(text).toContain('XPO Logistics');
      expect(text).toContain('Brand One');
    });
    const cartonText = pageText(doc.getPage(0));
    expect(cartonText).toContain('CARTON 1 OF 3');
    expect(cartonText).toContain('SKU-A  × 4');
    expect(pageText(doc.getPage(2))).toContain('2 cartons · 6 units');
  });

  it('draws the GS1-128 bars bwip-js encodes for (00) + SSCC', async () => {
    const u = unit(7);
    const doc = await loadPdf(await buildLabelsPdf({ kind: 'gs1', shipment, units: [u] }, AT));
    const rects = [
      ...pageOperators(doc.getPage(0)).matchAll(/([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re/g),
    ]
      .map((m) => ({ x: Number(m[1]), w: Number(m[3]), h: Number(m[4]) }))
      .filter((r) => r.h === 112);
    const [symbol] = bwipjs.raw({ bcid: 'gs1-128', text: `(00)${u.sscc}` });
    const bars = (symbol as { sbs: number[] }).sbs.filter((_, i) => i % 2 === 0);
    expect(rects).toHaveLength(bars.length);
    const moduleWidth = rects[0]!.w / bars[0]!;
    expect(rects.map((r) => Math.round(r.w / moduleWidth))).toEqual(bars);
    // Quiet zones: at least 10 modules either side inside the page.
    const left = rects[0]!.x;
    const right = rects.at(-1)!.x + rects.at(-1)!.w;
    expect(left).toBeGreaterThanOrEqual(10 * moduleWidth);
    expect(288 - right).toBeGreaterThanOrEqual(10 * moduleWidth);
  });

  it('QR labels carry the SSCC as a GS1 Digital Link; placards the PO large', async () => {
    const qr = await loadPdf(await buildLabelsPdf({ kind: 'qr', shipment, units: [unit(1)] }, AT));
    expect(pageText(qr.getPage(0))).toContain(ssccDigitalLink(sscc(1)));
    expect(pageText(qr.getPage(0))).toContain(`(00) ${sscc(1)}`);
    const placard = await loadPdf(
      await buildLabelsPdf({ kind: 'placard', shipment, units: [unit(2, 'pallet')] }, AT),
    );
    const text = pageText(placard.getPage(0));
    expect(text).toContain('PO-7001');
    expect(text).toContain('PALLET 2 OF 3');
    expect(text).toContain('DC 0007');
    expect(pageOperators(placard.getPage(0))).toMatch(/ 40 Tf/);
  });

  it('prints addresses in any script: WinAnsi letters kept, accents dropped where needed, others as ?', async () => {
    expect(winAnsi('Zürich Łódź 東京 €5\nline')).toBe('Zürich Lódz ?? €5 line');
    const doc = await loadPdf(
      await buildLabelsPdf(
        { kind: 'gs1', shipment: { ...shipment, shipTo: ['東京 Łódź DC'] }, units: [unit(1)] },
        AT,
      ),
    );
    expect(pageText(doc.getPage(0))).toContain('?? Lódz DC');
  });
});

describe('label ZPL', () => {
  it('one ^XA…^XZ per unit with the GS1-128 (FNC1, AI 00) of the SSCC and its text', () => {
    const units = [unit(1), unit(2, 'pallet')];
    const zpl = buildLabelsZpl({ kind: 'gs1', shipment, units });
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    expect(zpl.match(/\^XZ/g)).toHaveLength(2);
    for (const u of units) {
      expect(zpl).toContain(`^BCN,300,N,N,N^FD>;>800${u.sscc}^FS`);
      expect(zpl).toContain(`^FD(00) ${u.sscc}^FS`);
    }
    expect(zpl).toContain('^PW812');
    expect(zpl).toContain('^LL1218');
    expect(zpl).toContain('^CI28');
    expect(zpl).toContain('^FDPO-7001^FS');
  });

  it('QR and placard formats', () => {
    const qr = buildLabelsZpl({ kind: 'qr', shipment, units: [unit(1)] });
    expect(qr).toContain(`^BQN,2,12^FH^FDMA,${ssccDigitalLink(sscc(1))}^FS`);
    const placard = buildLabelsZpl({ kind: 'placard', shipment, units: [unit(1, 'pallet')] });
    expect(placard).toContain('PALLET 1 OF 3');
    expect(placard).toContain(`>;>800${sscc(1)}`);
  });

  it('escapes field data, so an address cannot end a field or start a command', () => {
    expect(zplFieldData('A^XZ~JA_\\ ü')).toBe('A_5EXZ_7EJA_5F_5C _C3_BC');
    const zpl = buildLabelsZpl({
      kind: 'gs1',
      shipment: { ...shipment, shipTo: ['Evil ^XZ^XA~JA'] },
      units: [unit(1)],
    });
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).toContain('Evil _5EXZ_5EXA_7EJA');
  });
});

describe('while packing is open, and without a ship-to', () => {
  const open = (n: number, kind: 'carton' | 'pallet' = 'carton') => ({
    ...unit(n, kind),
    total: null,
  });
  const noShipTo = { ...shipment, shipTo: [], shipToZip: null };

  it('PDF: "CARTON 2" without a total; a missing ship-to printed as missing, "1 carton"', async () => {
    const doc = await loadPdf(
      await buildLabelsPdf(
        {
          kind: 'gs1',
          shipment: noShipTo,
          units: [open(2), { ...open(1, 'pallet'), cartonCount: 1 }],
        },
        AT,
      ),
    );
    const carton = pageText(doc.getPage(0));
    expect(carton).toContain('CARTON 2');
    expect(carton).not.toContain(' OF ');
    expect(carton).toContain('SHIP-TO ADDRESS MISSING');
    expect(carton).toContain('MISSING');
    expect(carton).not.toContain('(no ship-to address)');
    expect(pageText(doc.getPage(1))).toContain('1 carton · 6 units');
  });

  it('ZPL: the same words', () => {
    const zpl = buildLabelsZpl({ kind: 'gs1', shipment: noShipTo, units: [open(2)] });
    expect(zpl).toContain('^FDCARTON 2^FS');
    expect(zpl).not.toContain(' OF ');
    expect(zpl).toContain('^FDSHIP-TO ADDRESS MISSING^FS');
    expect(zpl).toContain('^FDMISSING^FS');
    const placard = buildLabelsZpl({
      kind: 'placard',
      shipment,
      units: [{ ...unit(1, 'pallet'), cartonCount: 1 }],
    });
    expect(placard).toContain('1 CARTON, 6 UNITS');
  });
});

describe('label metrics', () => {
  it('names every print kind as billing counts it', () => {
    const names = [
      labelMetric('carton', 'gs1'),
      labelMetric('carton', 'qr'),
      labelMetric('pallet', 'gs1'),
      labelMetric('pallet', 'qr'),
      labelMetric('pallet', 'placard'),
    ];
    for (const name of names) expect(LABEL_PRINT_METRICS).toContain(name);
    expect(labelMetric('carton', 'gs1')).toBe('Carton Label Printed - GS1 Label');
    expect(labelMetric('pallet', 'placard')).toBe('Pallet Label Printed - Placard');
  });
});
