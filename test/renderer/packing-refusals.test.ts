import { describe, expect, it } from 'vitest';
import { PACKING_COMPLETE } from '../../src/shared/fulfilment';
import { ApiError } from '../../src/renderer/src/api/ApiError';
import {
  isPackingComplete,
  offersPdfInstead,
} from '../../src/renderer/src/screens/packing/serviceRefusals';
import { LABEL_MESSAGES } from '../../src/server/documents/labels';
import { PRINT_MESSAGES } from '../../src/server/documents/print-labels';
import { PRINTER_FAILED_MESSAGE } from '../../src/server/documents/label-printer';
import { resolvePrinterAddress } from '../../src/server/documents/printer-address';

describe('refusals the packing screen answers with an offer', () => {
  it('a Packed order is known by the shared PACKING_COMPLETE wording on a 409', () => {
    expect(isPackingComplete(new ApiError(409, 'INVALID_REQUEST', PACKING_COMPLETE))).toBe(true);
    expect(isPackingComplete(new ApiError(409, 'INVALID_REQUEST', 'Carton not found'))).toBe(false);
    expect(isPackingComplete(new ApiError(400, 'INVALID_REQUEST', PACKING_COMPLETE))).toBe(false);
    expect(isPackingComplete(new Error(PACKING_COMPLETE))).toBe(false);
  });

  it('offers the labels as a PDF only when the printer or its setting is the problem', async () => {
    // The service's own refusal of a printer address (a port that is not a printer's).
    const refused = await resolvePrinterAddress({ host: '192.0.2.10', port: 22 }).then(
      () => '',
      (e: Error) => e.message,
    );
    const offered = (status: number, message: string) =>
      offersPdfInstead(new ApiError(status, 'X', message));
    expect(offered(502, PRINTER_FAILED_MESSAGE)).toBe(true);
    expect(offered(409, PRINT_MESSAGES.noPrinter)).toBe(true);
    expect(refused).toMatch(/not a printer port/);
    expect(offered(409, refused)).toBe(true);
    // A unit without a valid SSCC: the PDF fails the same way.
    expect(offered(409, LABEL_MESSAGES.noValidSscc)).toBe(false);
    expect(offered(409, LABEL_MESSAGES.nothingToLabel)).toBe(false);
    expect(offered(429, 'Too many prints')).toBe(false);
    expect(offered(404, 'Order not found')).toBe(false);
    expect(offersPdfInstead(new Error('offline'))).toBe(false);
  });
});
