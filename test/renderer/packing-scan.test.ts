import { describe, expect, it } from 'vitest';
import { buildSscc } from '../../src/server/fulfilment/sscc';
import type { FulfilmentView } from '../../src/shared/fulfilment';
import { commandOfKey } from '../../src/renderer/src/screens/packing/packingKeys';
import {
  bytesOfBase64,
  labelFileName,
  looksLikePdf,
} from '../../src/renderer/src/screens/packing/pdfFiles';
import {
  gs1CheckDigit,
  isValidSscc,
  readScan,
  scanActionOf,
} from '../../src/renderer/src/screens/packing/scanInput';

// SSCCs as the service makes them (extension 0 for cartons, 1 for pallets, prefix 0614141).
const CARTON_SSCC = buildSscc(0, '0614141', 1);
const PALLET_SSCC = buildSscc(1, '0614141', 1);
const OTHER_SSCC = buildSscc(0, '0614141', 2);

const carton = {
  id: '11111111-1111-4111-8111-111111111111',
  sscc: CARTON_SSCC,
  pallet_id: null,
  created_at: '2026-11-20T10:00:00.000Z',
  packed_by: null,
  packing_complete_at: '2026-11-20T10:05:00.000Z',
  parcel_tracking_number: null,
  dim_unit: null,
  height: null,
  width: null,
  length: null,
  weight_unit: null,
  weight: null,
  units: 4,
  skus: [{ sku: 'SUM-BAG-20F', upc: '0810001000029', quantity: 4, serial_numbers: [] }],
};
const pallet = {
  id: '22222222-2222-4222-8222-222222222222',
  sscc: PALLET_SSCC,
  status: 'Open',
  created_at: '2026-11-20T10:06:00.000Z',
  staged_by: null,
  staged_at: null,
  dim_unit: null,
  height: null,
  width: null,
  length: null,
  weight_unit: null,
  weight: null,
  carton_ids: [],
};
const line = {
  line_number: 0,
  sku: 'SUM-BAG-20F',
  upc: '0810001000029',
  case_barcode: '10810001000025',
  case_pack_quantity: 4,
  description: null,
  ordered_quantity: 16,
  packed_quantity: 4,
  remaining_quantity: 12,
};
const view: Pick<FulfilmentView, 'cartons' | 'pallets' | 'lines'> = {
  cartons: [carton],
  pallets: [pallet],
  lines: [line],
};

describe('SSCC detection', () => {
  it('computes the GS1 mod-10 check digit as the service does', () => {
    // GS1's own example: SSCC (00) 1 0614141 123456789 7.
    expect(gs1CheckDigit('10614141123456789')).toBe(7);
    expect(CARTON_SSCC).toBe('006141410000000012');
    for (let serial = 1; serial <= 50; serial += 1) {
      expect(isValidSscc(buildSscc(serial % 2, '0614142', serial * 7919))).toBe(true);
    }
    expect(isValidSscc('006141410000000017')).toBe(false);
    expect(isValidSscc('06141410000000012')).toBe(false);
  });

  it('reads an SSCC with or without its (00), a symbology prefix, spaces and FNC1', () => {
    for (const raw of [
      CARTON_SSCC,
      `00${CARTON_SSCC}`,
      `]C100${CARTON_SSCC}`,
      '(00) 0 0614141 000000001 2',
      `  ${CARTON_SSCC}${String.fromCharCode(29)}  `,
    ]) {
      expect(readScan(raw)).toMatchObject({ kind: 'sscc', sscc: CARTON_SSCC });
    }
  });

  it('reads anything else as an item code, trimmed; blank as nothing', () => {
    expect(readScan(' SUM-BAG-20F ')).toEqual({ kind: 'item', code: 'SUM-BAG-20F' });
    expect(readScan('0810001000029')).toEqual({ kind: 'item', code: '0810001000029' });
    expect(readScan('10810001000025')).toEqual({ kind: 'item', code: '10810001000025' });
    // 18 digits with a wrong check digit are not an SSCC.
    expect(readScan('006141410000000017')).toEqual({ kind: 'item', code: '006141410000000017' });
    expect(readScan('   ')).toEqual({ kind: 'empty' });
    expect(readScan('')).toEqual({ kind: 'empty' });
  });
});

describe('what a scan does on the order', () => {
  it('packs SKUs, UPCs and case barcodes', () => {
    expect(scanActionOf('SUM-BAG-20F', view)).toEqual({ kind: 'pack', code: 'SUM-BAG-20F' });
    expect(scanActionOf('10810001000025', view)).toEqual({
      kind: 'pack',
      code: '10810001000025',
    });
    // Codes the order does not know still go to the service, which names them.
    expect(scanActionOf('NOT-ON-ORDER', view)).toEqual({ kind: 'pack', code: 'NOT-ON-ORDER' });
  });

  it('selects the carton or pallet whose SSCC was scanned', () => {
    expect(scanActionOf(`00${CARTON_SSCC}`, view)).toEqual({ kind: 'carton', carton });
    expect(scanActionOf(PALLET_SSCC, view)).toEqual({ kind: 'pallet', pallet });
  });

  it('refuses an SSCC of no unit of the order instead of packing it', () => {
    expect(scanActionOf(OTHER_SSCC, view)).toEqual({ kind: 'unknown-sscc', sscc: OTHER_SSCC });
  });

  it('packs an SSCC-shaped code that is an item code of the order', () => {
    const itemLike = OTHER_SSCC;
    const withItem = { ...view, lines: [{ ...line, sku: itemLike }] };
    expect(scanActionOf(itemLike, withItem)).toEqual({ kind: 'pack', code: itemLike });
  });

  it('does nothing for an empty scan', () => {
    expect(scanActionOf('', view)).toEqual({ kind: 'none' });
  });
});

describe('one-key commands', () => {
  const key = (name: string, modifiers: Partial<Record<string, boolean>> = {}) => ({
    key: name,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    ...modifiers,
  });

  it('maps F2, F3 and F4 to close carton, new pallet and print label', () => {
    expect(commandOfKey(key('F2'))).toBe('closeCarton');
    expect(commandOfKey(key('F3'))).toBe('newPallet');
    expect(commandOfKey(key('F4'))).toBe('printLabel');
  });

  it('maps F6, F7 and F8 to the packing slip, the compliance report and all labels', () => {
    expect(commandOfKey(key('F6'))).toBe('packingSlip');
    expect(commandOfKey(key('F7'))).toBe('complianceReport');
    expect(commandOfKey(key('F8'))).toBe('allLabels');
    expect(commandOfKey(key('F8', { shiftKey: true }))).toBeNull();
  });

  it('leaves other keys and modified F-keys (Alt+F4, Ctrl+F4) alone', () => {
    expect(commandOfKey(key('Enter'))).toBeNull();
    expect(commandOfKey(key('F5'))).toBeNull();
    expect(commandOfKey(key('F4', { altKey: true }))).toBeNull();
    expect(commandOfKey(key('F4', { ctrlKey: true }))).toBeNull();
  });
});

describe('PDF files', () => {
  it('decodes base64 content and recognises a PDF', () => {
    const bytes = bytesOfBase64(btoa('%PDF-1.7\n'));
    expect(looksLikePdf(bytes)).toBe(true);
    expect(looksLikePdf(bytesOfBase64(btoa('<html>')))).toBe(false);
    expect(bytesOfBase64('JVBE\nRi0=')).toEqual(new Uint8Array([37, 80, 68, 70, 45]));
  });

  it('names label downloads by SSCC, else by unit and number', () => {
    expect(labelFileName('carton', 2, CARTON_SSCC)).toBe(`label-${CARTON_SSCC}.pdf`);
    expect(labelFileName('pallet', 1, null)).toBe('label-pallet-1.pdf');
  });
});
