import { describe, expect, it } from 'vitest';
import {
  createOrderBodySchema,
  orderListQuerySchema,
  updateOrderBodySchema,
  type OrderDetails,
} from '../../src/shared/orders';
import { orderListParams } from '../../src/renderer/src/api/orders';
import { timelineOf } from '../../src/renderer/src/screens/orders/orderFormat';
import { fieldMessage } from '../../src/renderer/src/format/fieldMessage';
import { formatDate } from '../../src/renderer/src/format/time';
import {
  emptyOrderForm,
  fieldPathsOf,
  formValuesOfOrder,
  transportationChoiceOf,
} from '../../src/renderer/src/screens/orders/orderFormValues';
import {
  ORDER_PAGE_SIZE,
  isFiltered,
  listRequestOf,
  orderListSearchSchema,
  searchAfterSort,
  shipRangeBackwards,
} from '../../src/renderer/src/screens/orders/orderSearch';

const FACILITY = '0f000000-0000-4000-8000-000000000001';
const RETAILER = '0e000000-0000-4000-8000-000000000001';

describe('orders list URL state', () => {
  it('drops values that do not fit instead of failing the screen', () => {
    expect(
      orderListSearchSchema.parse({
        q: '  PO-1 ',
        status: 'Lost',
        facility: 'not-a-uuid',
        retailer: RETAILER,
        sort: 'password',
        dir: 'sideways',
        page: 0,
      }),
    ).toEqual({ q: 'PO-1', retailer: RETAILER });
    // The router reads `?q=4500123` as a number; it is still a search.
    expect(orderListSearchSchema.parse({ q: 4500123 })).toEqual({ q: '4500123' });
  });

  it('asks the service for what the URL says, newest first by default', () => {
    const request = listRequestOf({ q: 'PS-9', status: 'Packed', facility: FACILITY, page: 3 });
    expect(request).toEqual({
      search: 'PS-9',
      status: ['Packed'],
      facility_id: FACILITY,
      retailer_id: undefined,
      order_by: 'created_at',
      order_direction: 'desc',
      page: 3,
      page_size: ORDER_PAGE_SIZE,
    });
    // The query string the service gets parses with its own schema to the same request.
    const params = Object.fromEntries(orderListParams(request));
    expect(params).toEqual({
      search: 'PS-9',
      status: 'Packed',
      facility_id: FACILITY,
      order_by: 'created_at',
      order_direction: 'desc',
      page: '3',
      page_size: String(ORDER_PAGE_SIZE),
    });
    expect(orderListQuerySchema.parse(params)).toMatchObject({
      search: 'PS-9',
      status: ['Packed'],
      page: 3,
    });
  });

  it('sorts by a clicked column, flips it on a second click and goes back to page 1', () => {
    const byPicksheet = searchAfterSort({ page: 4, status: 'Open' }, 'picksheet_code');
    expect(byPicksheet).toEqual({
      status: 'Open',
      sort: 'picksheet_code',
      dir: 'asc',
      page: undefined,
    });
    expect(searchAfterSort(byPicksheet, 'picksheet_code')).toMatchObject({ dir: 'desc' });
    // Dates start newest first; the default sort leaves the URL clean.
    expect(searchAfterSort({}, 'updated_at')).toMatchObject({ sort: 'updated_at', dir: 'desc' });
    expect(searchAfterSort({}, 'created_at')).toMatchObject({ sort: 'created_at', dir: 'asc' });
    expect(searchAfterSort({ sort: 'created_at', dir: 'asc' }, 'created_at')).toMatchObject({
      sort: undefined,
      dir: undefined,
    });
  });

  it('knows when filters narrow the list', () => {
    expect(isFiltered({ sort: 'status', page: 2 })).toBe(false);
    expect(isFiltered({ retailer: RETAILER })).toBe(true);
  });

  it('asks for the ship-by range and the due view; a range whose from is after its to is left out', () => {
    const search = orderListSearchSchema.parse({
      due: 'today_or_late',
      shipFrom: '2026-03-01',
      shipTo: '2026-03-31',
    });
    const params = Object.fromEntries(orderListParams(listRequestOf(search)));
    expect(params).toMatchObject({
      due: 'today_or_late',
      ship_by_from: '2026-03-01',
      ship_by_to: '2026-03-31',
    });
    expect(orderListQuerySchema.parse(params)).toMatchObject({ due: 'today_or_late' });
    expect(isFiltered({ due: 'late' })).toBe(true);
    expect(isFiltered({ shipTo: '2026-03-31' })).toBe(true);
    const backwards = { shipFrom: '2026-04-01', shipTo: '2026-03-01' };
    expect(shipRangeBackwards(backwards)).toBe(true);
    const request = listRequestOf(backwards);
    expect(request.ship_by_from).toBeUndefined();
    expect(request.ship_by_to).toBeUndefined();
    // Values that do not fit are dropped.
    expect(orderListSearchSchema.parse({ due: 'soon', shipFrom: '2026-02-30' })).toEqual({});
  });
});

function storedOrder(overrides: Partial<OrderDetails> = {}): OrderDetails {
  const nulls = <K extends string>(keys: readonly K[]) =>
    Object.fromEntries(keys.map((key) => [key, null])) as Record<K, null>;
  return {
    identifiers: {
      id: '0d000000-0000-4000-8000-000000000001',
      picksheet_code: 'PS-1',
      external_order_id: null,
      po_number: 'PO-1',
      retailer_id: RETAILER,
      brand: {
        external_brand_code: 'SUM',
        brand_id: '0b000000-0000-4000-8000-000000000001',
        name: 'Summit',
      },
      facility: { external_facility_code: 'RNO1', id: FACILITY, name: 'Reno DC' },
      retailer: { retailer_id: RETAILER, name: 'Big Box' },
      ...nulls([
        'transportation_method',
        'bill_of_lading_number',
        'pro_number',
        'carrier',
        'service_method',
        'parcel_account_number',
        'parcel_billing_type',
        'carrier_alpha_code',
        'external_load_number',
        'dept_number',
        'purchase_order_type',
      ]),
    },
    status: 'Open',
    ...nulls([
      'updated_at',
      'pickup_date',
      'requested_pickup_date',
      'stage_by',
      'earliest_ship_date',
      'latest_ship_date',
      'requested_ship_date',
      'cancel_by_date',
      'earliest_delivery_date',
      'latest_delivery_date',
      'requested_delivery_date',
      'scheduled_delivery_date',
      'delivery_appointment_date',
      'started_at',
      'packed_at',
      'staged_at',
      'loaded_at',
      'parcel_print_start_time',
      'parcel_print_end_time',
      'asn_sent_at',
      'invoice_sent_at',
      'po_acknowledgment_sent_at',
      'shipped_at',
      'cancelled_at',
    ]),
    created_at: '2026-11-20T10:00:00.000Z',
    pallets: [],
    items: [
      {
        sku: 'SKU-1',
        upc: null,
        quantity: 5,
        case_pack_quantity: null,
        case_barcode: null,
        vendor_pn: null,
        description: 'Tent',
        trackers: [{ quantity: 2, lot_number: 'L1', exp_date: '2027-01-31', pass_through: null }],
        pass_through: { line_id: '10' },
      },
    ],
    address_data: {
      ship_to_contact: { name: 'DC 14', city: 'Reno' },
      bill_to_contact: { email: 'ap@example.com' },
      mark_for_contact: null,
    },
    dates: {
      ...nulls([
        'requested_delivery_date',
        'earliest_delivery_date',
        'latest_delivery_date',
        'earliest_ship_date',
        'latest_ship_date',
        'requested_ship_date',
        'stage_by',
      ]),
      cancel_by_date: '2026-12-20',
    },
    ...overrides,
  };
}

describe('order form values and the shared schema', () => {
  it('an untouched new form fails where the form shows fields, on the paths it uses', () => {
    const values = emptyOrderForm();
    const result = createOrderBodySchema.safeParse(values);
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join('.')) ?? [];
    expect(paths).toEqual(
      expect.arrayContaining([
        'picksheet_code',
        'facility_id',
        'brand_id',
        'retailer_id',
        'items.0.sku',
        'items.0.quantity',
      ]),
    );
    // Every complaint lands on an input the form has: none is lost.
    const formPaths = fieldPathsOf(values);
    for (const path of paths) expect(formPaths, path).toContain(path);
  });

  it('a filled new form is a valid create body, blanks as not given', () => {
    const values = emptyOrderForm({ facilityId: FACILITY });
    values.picksheet_code = ' PS-7 ';
    values.brand_id = '0b000000-0000-4000-8000-000000000001';
    values.retailer_id = RETAILER;
    values.items = [{ ...values.items[0]!, sku: 'SKU-1', quantity: 3 }];
    values.dates.cancel_by_date = '2026-12-20';
    const body = createOrderBodySchema.parse(values);
    expect(body.picksheet_code).toBe('PS-7');
    expect(body.po_number).toBeNull();
    expect(body.dates?.cancel_by_date).toBe('2026-12-20');
    expect(body.dates?.stage_by).toBeNull();
    expect(body.address_data?.bill_to_contact?.email).toBeNull();
  });

  it('a stored transportation method is one of the two choices whatever its case; another stays as received', () => {
    expect(transportationChoiceOf('freight')).toBe('FREIGHT');
    expect(transportationChoiceOf(' Parcel ')).toBe('PARCEL');
    expect(transportationChoiceOf('LTL')).toBe('LTL');
    expect(transportationChoiceOf(null)).toBe('');
  });

  it('editing a stored order sends its lines back with their trackers and pass-through', () => {
    const values = formValuesOfOrder(storedOrder());
    expect(values.address_data.ship_to_contact.city).toBe('Reno');
    expect(values.address_data.mark_for_contact.name).toBe('');
    expect(values.dates.cancel_by_date).toBe('2026-12-20');
    const body = updateOrderBodySchema.parse(values);
    expect(body.items?.[0]).toMatchObject({
      sku: 'SKU-1',
      quantity: 5,
      trackers: [{ quantity: 2, lot_number: 'L1', exp_date: '2027-01-31' }],
      pass_through: { line_id: '10' },
    });
    expect(body.facility_id).toBe(FACILITY);
  });
});

describe('order page', () => {
  it('shows each step of the status flow with its time, later steps not yet', () => {
    const order = storedOrder({
      status: 'Packed',
      started_at: '2026-11-20T11:00:00.000Z',
      packed_at: '2026-11-20T12:00:00.000Z',
    });
    expect(timelineOf(order).map((step) => [step.label, step.at])).toEqual([
      ['Created', '2026-11-20T10:00:00.000Z'],
      ['Picking started', '2026-11-20T11:00:00.000Z'],
      ['Packed', '2026-11-20T12:00:00.000Z'],
      ['Staged', null],
      ['Loaded', null],
      ['Shipped', null],
    ]);
  });

  it('a cancelled order ends with its cancellation after the steps it reached', () => {
    const order = storedOrder({
      status: 'Cancelled',
      started_at: '2026-11-20T11:00:00.000Z',
      cancelled_at: '2026-11-21T09:00:00.000Z',
    });
    expect(timelineOf(order).map((step) => step.label)).toEqual([
      'Created',
      'Picking started',
      'Cancelled',
    ]);
  });

  it('words schema messages as sentences next to their fields', () => {
    expect(fieldMessage('is required')).toBe('This field is required');
    expect(fieldMessage('must be a whole number')).toBe('Must be a whole number');
    expect(fieldMessage('PS-1 is taken at this facility')).toBe('PS-1 is taken at this facility');
  });

  it('shows calendar dates as written, whatever the time zone', () => {
    expect(formatDate('2026-12-20')).toBe('2026-12-20');
    expect(formatDate('2026-12-20T00:00:00.000Z')).toBe('2026-12-20');
    expect(formatDate(null)).toBeNull();
  });
});
