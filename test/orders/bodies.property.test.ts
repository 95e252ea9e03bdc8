/**
 * Property tests of the order body schemas (src/shared/orders.ts), which the service and the order
 * form share: every well-formed body is accepted and keeps its values; a bad quantity, date or
 * e-mail anywhere is rejected at its own path; the create/update parse messages hold for any body.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changeFacilityBodySchema,
  createOrderBodySchema,
  updateOrderBodySchema,
} from '../../src/shared/orders';
import { DomainError } from '../../src/server/core/errors';
import {
  parseCreateBody,
  parseUpdateBody,
  PICKSHEET_REQUIRED,
} from '../../src/server/orders/validation';

const RUNS = { numRuns: 200 };

const uuid = fc.uuid({ version: 4 });
/** Visible text without surrounding spaces (the schema trims), 1 to 40 characters. */
const code = fc
  .string({ minLength: 1, maxLength: 40 })
  .map((s) => s.trim())
  .filter((s) => s.length > 0);
const quantity = fc.integer({ min: 1, max: 10_000_000 });
/** A real calendar date 1900-2199, written YYYY-MM-DD. */
const calendarDate = fc
  .date({
    min: new Date('1900-01-01T00:00:00Z'),
    max: new Date('2199-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));
const email = fc.emailAddress().filter((e) => e.length <= 254);

const createItem = fc.record(
  {
    sku: code,
    upc: code,
    quantity,
    case_pack_quantity: quantity,
    case_barcode: code,
    vendor_pn: code,
    description: code,
  },
  { requiredKeys: ['sku', 'quantity'] },
);

const dates = fc.record(
  {
    requested_delivery_date: calendarDate,
    cancel_by_date: calendarDate,
    requested_ship_date: calendarDate,
    stage_by: calendarDate,
  },
  { requiredKeys: [] },
);

const createBody = fc.record(
  {
    picksheet_code: code,
    brand_id: uuid,
    retailer_id: uuid,
    facility_id: uuid,
    items: fc.array(createItem, { minLength: 1, maxLength: 5 }),
    po_number: code,
    transportation_method: fc.constantFrom('FREIGHT', 'PARCEL'),
    address_data: fc.record(
      { bill_to_contact: fc.record({ name: code, email }, { requiredKeys: [] }) },
      { requiredKeys: [] },
    ),
    dates,
  },
  { requiredKeys: ['picksheet_code', 'brand_id', 'retailer_id', 'facility_id', 'items'] },
);

const tracker = fc.record(
  {
    quantity: fc.integer({ min: 1, max: 5 }),
    lot_number: code,
    exp_date: calendarDate,
    pass_through: fc.record({ lot_id: code }),
  },
  { requiredKeys: ['quantity'] },
);
const updateItem = fc
  .record(
    {
      sku: code,
      upc: code,
      trackers: fc.array(tracker, { maxLength: 3 }),
      pass_through: fc.record(
        { line_id: code, stock_number: code, pull_id: code },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ['sku'] },
  )
  .map((item) => ({
    ...item,
    // At least as many as the trackers hold.
    quantity: (item.trackers ?? []).reduce((sum, t) => sum + t.quantity, 0) + 1,
  }));

const updateBody = fc.record(
  {
    picksheet_code: code,
    brand_id: uuid,
    retailer_id: uuid,
    facility_id: uuid,
    po_number: code,
    items: fc.array(updateItem, { minLength: 1, maxLength: 5 }),
  },
  { requiredKeys: ['picksheet_code'] },
);

/** Not a positive whole number. */
const badQuantity = fc.oneof(
  fc.integer({ max: 0 }),
  fc.double({ noNaN: true }).filter((n) => !Number.isInteger(n)),
  fc.constant(Number.NaN),
  fc.integer({ min: 10_000_001 }),
  fc.integer({ min: 1 }).map(String),
  fc.boolean(),
  fc.constant(null),
);
/** Not a real YYYY-MM-DD date. */
const badDate = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 1900, max: 2199 }),
      fc.integer({ min: 13, max: 99 }),
      fc.integer({ min: 1, max: 28 }),
    )
    .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
  fc
    .tuple(
      fc.integer({ min: 1900, max: 2199 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 32, max: 99 }),
    )
    .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${d}`),
  calendarDate.map((d) => `${d}T00:00:00Z`),
  calendarDate.map((d) => d.replaceAll('-', '/')),
  fc.constantFrom('2026-02-29', '2100-02-29', '2026-04-31', 'tomorrow', '2026-1-5'),
  fc.integer(),
);

const pathsOf = (error: { issues: { path: PropertyKey[] }[] }) =>
  error.issues.map((issue) => issue.path.map(String).join('.'));

describe('create body schema', () => {
  it('accepts every well-formed body and keeps its values', () => {
    fc.assert(
      fc.property(createBody, (body) => {
        const parsed = createOrderBodySchema.safeParse(body);
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
        if (!parsed.success) return;
        expect(parsed.data.picksheet_code).toBe(body.picksheet_code);
        expect(parsed.data.items.map((i) => [i.sku, i.quantity])).toEqual(
          body.items.map((i) => [i.sku, i.quantity]),
        );
        expect(parsed.data.dates ?? {}).toEqual(body.dates ?? {});
      }),
      RUNS,
    );
  });

  it('rejects a bad quantity on any line, at that line', () => {
    fc.assert(
      fc.property(createBody, badQuantity, fc.nat(), (body, value, at) => {
        const index = at % body.items.length;
        const items = body.items.map((item, i) =>
          i === index ? { ...item, quantity: value } : item,
        );
        const parsed = createOrderBodySchema.safeParse({ ...body, items });
        expect(parsed.success).toBe(false);
        if (!parsed.success) expect(pathsOf(parsed.error)).toContain(`items.${index}.quantity`);
      }),
      RUNS,
    );
  });

  it('rejects a date that is not a real YYYY-MM-DD date, at that field', () => {
    const field = fc.constantFrom(
      'requested_delivery_date',
      'earliest_delivery_date',
      'latest_delivery_date',
      'earliest_ship_date',
      'latest_ship_date',
      'cancel_by_date',
      'requested_ship_date',
      'stage_by',
    );
    fc.assert(
      fc.property(createBody, field, badDate, (body, name, value) => {
        const parsed = createOrderBodySchema.safeParse({ ...body, dates: { [name]: value } });
        expect(parsed.success).toBe(false);
        if (!parsed.success) expect(pathsOf(parsed.error)).toContain(`dates.${name}`);
      }),
      RUNS,
    );
  });

  it('rejects a bill-to e-mail without an @domain', () => {
    fc.assert(
      fc.property(
        createBody,
        code.filter((s) => !s.includes('@')),
        (body, value) => {
          const parsed = createOrderBodySchema.safeParse({
            ...body,
            address_data: { bill_to_contact: { email: value } },
          });
          expect(parsed.success).toBe(false);
        },
      ),
      RUNS,
    );
  });

  it('any body without a usable picksheet code gets the interface message; others never do', () => {
    const noCode = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.constantFrom('', ' ', '\t'),
    );
    fc.assert(
      fc.property(createBody, noCode, fc.anything(), (body, value, junk) => {
        for (const input of [
          { ...body, picksheet_code: value },
          { ...body, picksheet_code: value, items: junk },
        ]) {
          expect(() => parseCreateBody(input)).toThrow(PICKSHEET_REQUIRED);
        }
        try {
          parseCreateBody({ ...body, items: junk });
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).message).toMatch(/^Failed to create order: /);
          expect((error as DomainError).message).not.toBe(PICKSHEET_REQUIRED);
          expect(typeof (error as DomainError).extra['details']).toBe('string');
        }
      }),
      RUNS,
    );
  });
});

describe('update and change-facility body schemas', () => {
  it('accept every well-formed update body, trackers and pass_through kept', () => {
    fc.assert(
      fc.property(updateBody, (body) => {
        const parsed = updateOrderBodySchema.safeParse(body);
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
        if (!parsed.success || !body.items) return;
        expect(parsed.data.items?.map((i) => i.trackers ?? null)).toEqual(
          body.items.map((i) => i.trackers ?? null),
        );
        expect(parsed.data.items?.map((i) => i.pass_through ?? null)).toEqual(
          body.items.map((i) => i.pass_through ?? null),
        );
        const move = changeFacilityBodySchema.safeParse({
          ...body,
          facility_id: body.facility_id ?? crypto.randomUUID(),
        });
        expect(move.success).toBe(true);
      }),
      RUNS,
    );
  });

  it('reject trackers holding more than the line quantity', () => {
    fc.assert(
      fc.property(updateBody, fc.nat(), fc.integer({ min: 1, max: 5 }), (body, at, extra) => {
        if (!body.items) return;
        const index = at % body.items.length;
        const items = body.items.map((item, i) =>
          i === index
            ? { ...item, trackers: [...(item.trackers ?? []), { quantity: item.quantity + extra }] }
            : item,
        );
        const parsed = updateOrderBodySchema.safeParse({ ...body, items });
        expect(parsed.success).toBe(false);
        if (!parsed.success) expect(pathsOf(parsed.error)).toContain(`items.${index}.trackers`);
      }),
      RUNS,
    );
  });

  it('every rejected update says Invalid request body with a string details', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        try {
          parseUpdateBody(input);
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).message).toBe('Invalid request body');
          expect(typeof (error as DomainError).extra['details']).toBe('string');
        }
      }),
      RUNS,
    );
  });
});
