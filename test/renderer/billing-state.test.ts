import { dateRangeProblem } from '../../src/renderer/src/components/dateRange';
import { describe, expect, it } from 'vitest';
import { billingPricesBodySchema, type BillingPrices } from '../../src/shared/billing';
import { ApiError } from '../../src/renderer/src/api/ApiError';
import { billingParams } from '../../src/renderer/src/api/billing';
import {
  coreLabel,
  csvDollars,
  formatDollars,
  roundToCents,
} from '../../src/renderer/src/screens/billing/billingFormat';
import {
  billingSearchSchema,
  detailsQueryOf,
  exportNameOf,
  filtersOf,
  invoiceQueryOf,
  isFiltered,
  searchWithFilter,
} from '../../src/renderer/src/screens/billing/billingSearch';
import {
  bodyInputOf,
  dollarsOf,
  emptyActionRow,
  formValuesOf,
  priceFieldMessage,
  pricePathsOf,
  pricesFormSchema,
  saveRefusalText,
} from '../../src/renderer/src/screens/billing/pricesForm';

const BRAND = '0b000000-0000-4000-8000-000000000001';

describe('money', () => {
  it('shows dollars with cents', () => {
    expect(formatDollars(121.59, 'en-US')).toBe('$121.59');
    expect(formatDollars(4, 'en-US')).toBe('$4.00');
    expect(formatDollars(1234.5, 'en-US')).toBe('$1,234.50');
    expect(formatDollars(0, 'en-US')).toBe('$0.00');
    expect(formatDollars(0.1 + 0.2, 'en-US')).toBe('$0.30');
  });

  it('rounds to whole cents for CSV cells', () => {
    expect(roundToCents(2.675000001)).toBe(2.68);
    expect(csvDollars(10)).toBe('10.00');
    expect(csvDollars(0.35 * 8)).toBe('2.80');
  });

  it('names per-order counts as the invoice names its metrics', () => {
    expect(coreLabel('skus')).toBe('SKUs');
    expect(coreLabel('carton_label_parcel_printed')).toBe('Carton Label Printed - Parcel Label');
    expect(coreLabel('packing_slips')).toBe('Packing Slips');
  });
});

describe('billing URL state', () => {
  it('keeps valid filters and drops what does not fit', () => {
    expect(
      billingSearchSchema.parse({
        brand: BRAND,
        retailer: 'nope',
        method: 'PARCEL',
        packed_from: '2026-11-01',
        packed_to: '2026-02-30',
        asn_from: 20261101,
        page: 1,
      }),
    ).toEqual({
      brand: BRAND,
      retailer: undefined,
      method: 'PARCEL',
      packed_from: '2026-11-01',
      packed_to: undefined,
      asn_from: undefined,
      asn_to: undefined,
      page: undefined,
    });
    expect(billingSearchSchema.parse({ method: 'parcel' }).method).toBeUndefined();
  });

  it('turns the filters into the service queries', () => {
    const filters = filtersOf({ method: 'FREIGHT', packed_from: '2026-11-01', page: 3 });
    expect(filters).toEqual({ method: 'FREIGHT', packed_from: '2026-11-01' });
    expect(billingParams(invoiceQueryOf(filters)).toString()).toBe(
      'transportation_method=FREIGHT&packed_from=2026-11-01',
    );
    expect(billingParams(detailsQueryOf(filters, 2)).toString()).toBe(
      'transportation_method=FREIGHT&packed_from=2026-11-01&page=2&page_size=25',
    );
    expect(billingParams(detailsQueryOf({}, 1, 100)).toString()).toBe('page=1&page_size=100');
  });

  it('goes back to the first page of orders when a filter changes', () => {
    expect(searchWithFilter({ page: 4, brand: BRAND }, { method: 'PARCEL' })).toEqual({
      brand: BRAND,
      method: 'PARCEL',
      page: undefined,
    });
    expect(searchWithFilter({ method: 'PARCEL' }, { method: undefined })).toEqual({
      method: undefined,
      page: undefined,
    });
  });

  it('knows when filters narrow the bill (a page alone does not)', () => {
    expect(isFiltered({})).toBe(false);
    expect(isFiltered({ page: 2 })).toBe(false);
    expect(isFiltered({ asn_to: '2026-11-30' })).toBe(true);
  });

  it('says "From is after To" when a from date is after its to date', () => {
    expect(dateRangeProblem('2026-11-02', '2026-11-01')).toBe('From is after To.');
    expect(dateRangeProblem('2026-11-01', '2026-11-01')).toBeNull();
    expect(dateRangeProblem(undefined, '2026-11-01')).toBeNull();
  });

  it('names an export after its filters', () => {
    expect(exportNameOf({})).toBe('all');
    expect(exportNameOf({ method: 'PARCEL', packed_from: '2026-11-01' })).toBe(
      'parcel-packed_2026-11-01_now',
    );
    expect(exportNameOf({ asn_to: '2026-11-30' })).toBe('asn_start_2026-11-30');
  });
});

const stored: BillingPrices = {
  brand_id: BRAND,
  brand_name: 'Summit Outdoor',
  prices: { Orders: 1.25, Pallets: 3.5 },
  actions: [
    { type: 'Carton Workflow', metric: 'Pack', price_dollars: 0.1 },
    { type: 'Legacy', metric: 'Old', price_dollars: 2 },
  ],
};

describe('prices form', () => {
  it('shows stored prices with cents and blanks for unbilled metrics', () => {
    const values = formValuesOf(stored);
    expect(values.prices.Orders).toBe('1.25');
    expect(values.prices.Pallets).toBe('3.50');
    expect(values.prices.Units).toBe('');
    expect(values.actions).toEqual([
      { type: 'Carton Workflow', metric: 'Pack', price_dollars: '0.10' },
      { type: '', metric: 'Old', price_dollars: '2.00' },
    ]);
  });

  it('reads typed dollars, keeping text that is no number', () => {
    expect(dollarsOf(' $1,250.5 ')).toBe(1250.5);
    expect(dollarsOf('.25')).toBe(0.25);
    expect(dollarsOf('abc')).toBe('abc');
    expect(dollarsOf('1.2.3')).toBe('1.2.3');
  });

  it('sends only the priced metrics, and the actions as typed', () => {
    const values = formValuesOf(stored);
    values.prices.Units = '0.05';
    values.prices.Orders = '  ';
    values.actions = [{ type: 'VAS', metric: 'Ticketing', price_dollars: '0.15' }];
    expect(pricesFormSchema.parse(values)).toEqual({
      prices: { Pallets: 3.5, Units: 0.05 },
      actions: [{ type: 'VAS', metric: 'Ticketing', price_dollars: 0.15 }],
    });
    expect(billingPricesBodySchema.parse(bodyInputOf(values))).toEqual(
      pricesFormSchema.parse(values),
    );
  });

  it("puts the shared schema's complaints on the form's own fields", () => {
    const values = formValuesOf(stored);
    values.prices.Orders = '1.255';
    values.prices.Cartons = '-1';
    values.prices.Units = 'cheap';
    values.actions = [
      { type: 'Carton Workflow', metric: 'Pack', price_dollars: '0.10' },
      { type: 'Carton Workflow', metric: 'pack', price_dollars: '' },
      emptyActionRow(),
    ];
    const result = pricesFormSchema.safeParse(values);
    expect(result.success).toBe(false);
    const issues = Object.fromEntries(
      (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
    );
    expect(issues['prices.Orders']).toBe('must be whole cents (at most two decimals)');
    expect(issues['prices.Cartons']).toBe('must not be negative');
    expect(issues['prices.Units']).toBe('must be a number of dollars');
    expect(issues['actions.1.price_dollars']).toBe('must be a number of dollars');
    expect(issues['actions.2.type']).toBeDefined();
    expect(issues['actions.2.metric']).toBeDefined();
  });

  it('words field messages for clerks', () => {
    expect(
      priceFieldMessage('type', 'Invalid option: expected one of "Carton Workflow"|"VAS"'),
    ).toBe('Choose the type of action.');
    expect(priceFieldMessage('metric', 'Too small: expected string to have >=1 characters')).toBe(
      'Name the action (e.g. Pack).',
    );
    expect(priceFieldMessage('price', 'must be a number of dollars')).toBe(
      'Must be a number of dollars',
    );
    expect(priceFieldMessage('price', 'must not be negative')).toBe('Must not be negative');
    expect(
      priceFieldMessage('metric', "duplicate action 'Carton Workflow / pack' (also actions[0])"),
    ).toBe("Duplicate action 'Carton Workflow / pack' (also row 1)");
  });

  it('lists its field paths for placing the service problems', () => {
    const paths = pricePathsOf({ ...formValuesOf(stored), actions: [emptyActionRow()] });
    expect(paths).toContain('prices.Pallet Label Printed - QR Code');
    expect(paths.slice(-3)).toEqual([
      'actions.0.type',
      'actions.0.metric',
      'actions.0.price_dollars',
    ]);
  });

  it('says plainly who may change prices when the service refuses (403)', () => {
    const refusal = saveRefusalText(
      new ApiError(403, 'UNAUTHORIZED', 'Unauthorized'),
      'Summit Outdoor',
    );
    expect(refusal).toBe(
      'You may not change the prices of Summit Outdoor: that needs an admin grant for Summit Outdoor at one of your facilities. Ask an administrator; nothing was saved.',
    );
    expect(saveRefusalText(new ApiError(404, 'NOT_FOUND', 'Brand not found'), 'X')).toBe(
      'X is no longer one of your brands; nothing was saved.',
    );
    expect(saveRefusalText(new ApiError(0, 'NETWORK_ERROR', 'Could not reach'), 'X')).toBe(
      'Could not save the prices: Could not reach',
    );
    expect(saveRefusalText(new TypeError('x is undefined'), 'X')).toBe(
      'Could not save the prices: Something went wrong. Please try again.',
    );
  });
});
