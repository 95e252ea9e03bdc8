import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/renderer/src/api/ApiError';
import {
  MAX_BOL_BYTES,
  base64Of,
  checkBolFile,
  scheduledDeliveryOf,
} from '../../src/renderer/src/screens/orders/bolFile';
import { normaliseFieldPath, saveProblemsOf } from '../../src/renderer/src/forms/saveProblems';

const PDF_HEAD = new TextEncoder().encode('%PDF-1.7\n');

describe('bill-of-lading file check before upload', () => {
  it('accepts a PDF up to 10 MB, whatever its name', () => {
    expect(checkBolFile({ name: 'bol.pdf', size: 2048 }, PDF_HEAD)).toEqual({ ok: true });
    expect(checkBolFile({ name: 'scan', size: MAX_BOL_BYTES }, PDF_HEAD)).toEqual({ ok: true });
  });

  it('refuses a file over 10 MB and says how big it is', () => {
    const check = checkBolFile({ name: 'big.pdf', size: MAX_BOL_BYTES + 1 }, PDF_HEAD);
    expect(check).toEqual({
      ok: false,
      reason: 'big.pdf is 10.0 MB; a bill of lading may be at most 10 MB.',
    });
    const bigger = checkBolFile({ name: 'big.pdf', size: 12.4 * 1024 * 1024 }, PDF_HEAD);
    expect(bigger.ok || bigger.reason).toContain('12.4 MB');
  });

  it('refuses a file that is not a PDF by its bytes, even when named .pdf', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d]);
    expect(checkBolFile({ name: 'photo.pdf', size: 100 }, png)).toEqual({
      ok: false,
      reason: 'photo.pdf is not a PDF. Choose the bill of lading as a PDF file.',
    });
    expect(
      checkBolFile({ name: 'short.pdf', size: 3 }, new Uint8Array([0x25, 0x50, 0x44])).ok,
    ).toBe(false);
  });

  it('refuses an empty file', () => {
    expect(checkBolFile({ name: 'empty.pdf', size: 0 }, new Uint8Array())).toEqual({
      ok: false,
      reason: 'empty.pdf is empty.',
    });
  });

  it('turns a datetime-local value into YYYY-MM-DD HH:mm:ss', () => {
    expect(scheduledDeliveryOf('2026-11-24T14:30')).toBe('2026-11-24 14:30:00');
    expect(scheduledDeliveryOf('2026-11-24T14:30:15')).toBe('2026-11-24 14:30:15');
    expect(scheduledDeliveryOf('')).toBeNull();
    expect(scheduledDeliveryOf('2026-11-24')).toBeNull();
  });

  it('encodes large files as base64 without overflowing the stack', () => {
    const bytes = new Uint8Array(200_000).map((_, index) => index % 256);
    expect(base64Of(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });
});

const FORM_PATHS = [
  'po_number',
  'picksheet_code',
  'address_data.bill_to_contact.email',
  'address_data.ship_to_contact.name',
  'dates.cancel_by_date',
  'items.0.sku',
  'items.0.quantity',
  'items.1.quantity',
];

describe('server 400s placed on the form fields', () => {
  it('places the create message naming picksheet_code on that field', () => {
    const error = new ApiError(
      400,
      'INVALID_REQUEST',
      'Failed to create order: picksheet_code is required',
      {
        message: 'Failed to create order: picksheet_code is required',
        error: { code: 'INVALID_REQUEST' },
      },
    );
    expect(saveProblemsOf(error, FORM_PATHS)).toEqual({
      fields: [{ path: 'picksheet_code', message: 'picksheet_code is required' }],
      formMessage: null,
    });
  });

  it('places a string detail on the field it names, nested and indexed paths included', () => {
    const error = new ApiError(400, 'INVALID_REQUEST', 'Invalid request body', {
      message: 'Invalid request body',
      error: { code: 'INVALID_REQUEST', details: 'items[1].quantity must be a positive integer' },
    });
    expect(saveProblemsOf(error, FORM_PATHS).fields).toEqual([
      { path: 'items.1.quantity', message: 'items[1].quantity must be a positive integer' },
    ]);
    const email = new ApiError(
      400,
      'INVALID_REQUEST',
      'Failed to create order: address_data.bill_to_contact.email is not an e-mail address',
    );
    expect(saveProblemsOf(email, FORM_PATHS).fields[0]?.path).toBe(
      'address_data.bill_to_contact.email',
    );
  });

  it('places {loc, msg} details and keeps the ones without a field above the form', () => {
    const error = new ApiError(400, 'INVALID_REQUEST', 'Failed to create order', {
      error: {
        code: 'INVALID_REQUEST',
        details: [
          { loc: ['body', 'dates', 'cancel_by_date'], msg: 'Not a calendar date', type: 'date' },
          { loc: ['items', 0, 'quantity'], msg: 'Must be a positive integer', type: 'int' },
          { loc: ['retailer_id'], msg: 'Retailer not found', type: 'x' },
        ],
      },
    });
    expect(saveProblemsOf(error, FORM_PATHS)).toEqual({
      fields: [
        { path: 'dates.cancel_by_date', message: 'Not a calendar date' },
        { path: 'items.0.quantity', message: 'Must be a positive integer' },
      ],
      formMessage: 'Failed to create order: retailer_id: Retailer not found',
    });
  });

  it("splits the service's `path: problem; path: problem` details over the fields", () => {
    const error = new ApiError(
      400,
      'INVALID_REQUEST',
      'Failed to create order: items.0.quantity: must be greater than 0',
      {
        message: 'Failed to create order: items.0.quantity: must be greater than 0',
        error: {
          code: 'INVALID_REQUEST',
          details:
            'items.0.quantity: must be greater than 0; address_data.bill_to_contact.email: must be an e-mail address',
        },
      },
    );
    expect(saveProblemsOf(error, FORM_PATHS)).toEqual({
      fields: [
        { path: 'items.0.quantity', message: 'must be greater than 0' },
        { path: 'address_data.bill_to_contact.email', message: 'must be an e-mail address' },
      ],
      formMessage: null,
    });
  });

  it('places a taken picksheet code (409) on its field', () => {
    const message = 'Failed to create order: picksheet_code PS-1 already exists at this facility';
    const error = new ApiError(409, 'CONFLICT', message, {
      message,
      error: { code: 'CONFLICT', details: 'picksheet_code: PS-1 is taken at this facility' },
    });
    expect(saveProblemsOf(error, FORM_PATHS)).toEqual({
      fields: [{ path: 'picksheet_code', message: 'PS-1 is taken at this facility' }],
      formMessage: null,
    });
  });

  it('keeps a message that names no field, and other statuses, above the form', () => {
    const gone = new ApiError(404, 'NOT_FOUND', 'Order not found: picksheet_code PS-1');
    expect(saveProblemsOf(gone, FORM_PATHS)).toEqual({
      fields: [],
      formMessage: 'Order not found: picksheet_code PS-1',
    });
    const vague = new ApiError(400, 'INVALID_REQUEST', 'Brand does not work at this facility');
    expect(saveProblemsOf(vague, FORM_PATHS)).toEqual({
      fields: [],
      formMessage: 'Brand does not work at this facility',
    });
  });

  it('does not take a field name that is only part of a longer word', () => {
    const error = new ApiError(400, 'INVALID_REQUEST', 'Failed: original_po_number is wrong');
    expect(saveProblemsOf(error, FORM_PATHS).fields).toEqual([]);
  });

  it('normalises the path spellings services use', () => {
    expect(normaliseFieldPath('items[3].sku')).toBe('items.3.sku');
    expect(normaliseFieldPath('body.items.3.sku')).toBe('items.3.sku');
    expect(normaliseFieldPath('items -> 3 -> sku')).toBe('items.3.sku');
  });
});
