import { TRANSPORTATION_METHODS } from '../../../../shared/billing';
import {
  ORDER_DATE_FIELDS,
  type OrderDateField,
  type OrderDetails,
  type OrderItem,
} from '../../../../shared/orders';

/** Text inputs hold strings; a blank one is "not given" to the shared schema. */
export interface ShipToValues {
  name: string;
  address_line1: string;
  address_line2: string;
  city: string;
  province: string;
  country: string;
  zip: string;
  facility_code: string;
  dc_number: string;
}
export interface BillToValues extends Omit<ShipToValues, 'dc_number'> {
  address_number: string;
  email: string;
}
export interface MarkForValues extends Omit<ShipToValues, 'dc_number' | 'province'> {
  state: string;
  address_number: string;
}

/** One item row. Quantities are numbers (undefined while the input is blank). */
export interface ItemValues {
  sku: string;
  upc: string;
  quantity: number | undefined;
  case_pack_quantity: number | null;
  case_barcode: string;
  vendor_pn: string;
  description: string;
  /** Kept from the stored line on edit (the form does not show them), so an update keeps them. */
  trackers?: OrderItem['trackers'];
  pass_through?: OrderItem['pass_through'];
}

export interface OrderFormValues {
  picksheet_code: string;
  po_number: string;
  external_order_id: string;
  dept_number: string;
  purchase_order_type: string;
  transportation_method: string;
  carrier: string;
  facility_id: string;
  brand_id: string;
  retailer_id: string;
  address_data: {
    ship_to_contact: ShipToValues;
    bill_to_contact: BillToValues;
    mark_for_contact: MarkForValues;
  };
  dates: Record<OrderDateField, string>;
  items: ItemValues[];
}

export const SHIP_TO_FIELDS = [
  'name',
  'address_line1',
  'address_line2',
  'city',
  'province',
  'country',
  'zip',
  'facility_code',
  'dc_number',
] as const satisfies readonly (keyof ShipToValues)[];
export const BILL_TO_FIELDS = [
  'name',
  'address_line1',
  'address_line2',
  'city',
  'province',
  'country',
  'zip',
  'facility_code',
  'address_number',
  'email',
] as const satisfies readonly (keyof BillToValues)[];
export const MARK_FOR_FIELDS = [
  'name',
  'address_line1',
  'address_line2',
  'city',
  'state',
  'country',
  'zip',
  'facility_code',
  'address_number',
] as const satisfies readonly (keyof MarkForValues)[];

export const DETAIL_FIELDS = [
  'po_number',
  'external_order_id',
  'dept_number',
  'purchase_order_type',
  'transportation_method',
  'carrier',
] as const;

const blankRecord = <K extends string>(keys: readonly K[]): Record<K, string> =>
  Object.fromEntries(keys.map((key) => [key, ''])) as Record<K, string>;

export function emptyItem(): ItemValues {
  return {
    sku: '',
    upc: '',
    quantity: undefined,
    case_pack_quantity: null,
    case_barcode: '',
    vendor_pn: '',
    description: '',
  };
}

/** A new order: one empty item row, the facility (and brand) the user came from when known. */
export function emptyOrderForm(
  scope: { facilityId?: string; brandId?: string } = {},
): OrderFormValues {
  return {
    picksheet_code: '',
    ...blankRecord(DETAIL_FIELDS),
    facility_id: scope.facilityId ?? '',
    brand_id: scope.brandId ?? '',
    retailer_id: '',
    address_data: {
      ship_to_contact: blankRecord(SHIP_TO_FIELDS),
      bill_to_contact: blankRecord(BILL_TO_FIELDS),
      mark_for_contact: blankRecord(MARK_FOR_FIELDS),
    },
    dates: blankRecord(ORDER_DATE_FIELDS),
    items: [emptyItem()],
  };
}

function textsOf<K extends string>(
  keys: readonly K[],
  source: Partial<Record<K, string | null | undefined>> | null,
): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, source?.[key] ?? ''])) as Record<K, string>;
}

/**
 * A stored transportation method as the form's choice: `freight` or ` Parcel ` is one of the two
 * choices (the rules read it case-insensitively, and a save then stores it as the choice does);
 * another value stays as it was received.
 */
export function transportationChoiceOf(stored: string | null): string {
  const upper = stored?.trim().toUpperCase() ?? '';
  return (TRANSPORTATION_METHODS as readonly string[]).includes(upper) ? upper : (stored ?? '');
}

/** The form for editing a stored order (endpoint 8's answer). */
export function formValuesOfOrder(order: OrderDetails): OrderFormValues {
  const ids = order.identifiers;
  return {
    picksheet_code: ids.picksheet_code,
    po_number: ids.po_number ?? '',
    external_order_id: ids.external_order_id ?? '',
    dept_number: ids.dept_number ?? '',
    purchase_order_type: ids.purchase_order_type ?? '',
    transportation_method: transportationChoiceOf(ids.transportation_method),
    carrier: ids.carrier ?? '',
    facility_id: ids.facility.id,
    brand_id: ids.brand.brand_id,
    retailer_id: ids.retailer.retailer_id,
    address_data: {
      ship_to_contact: textsOf(SHIP_TO_FIELDS, order.address_data.ship_to_contact),
      bill_to_contact: textsOf(BILL_TO_FIELDS, order.address_data.bill_to_contact),
      mark_for_contact: textsOf(MARK_FOR_FIELDS, order.address_data.mark_for_contact),
    },
    dates: Object.fromEntries(
      ORDER_DATE_FIELDS.map((field) => [field, order.dates[field]?.slice(0, 10) ?? '']),
    ) as Record<OrderDateField, string>,
    items: order.items.map((item) => ({
      sku: item.sku,
      upc: item.upc ?? '',
      quantity: item.quantity,
      case_pack_quantity: item.case_pack_quantity,
      case_barcode: item.case_barcode ?? '',
      vendor_pn: item.vendor_pn ?? '',
      description: item.description ?? '',
      trackers: item.trackers,
      pass_through: item.pass_through,
    })),
  };
}

/** Every input's path, item rows included: where a service complaint can be shown. */
export function fieldPathsOf(values: OrderFormValues): string[] {
  const itemFields = [
    'sku',
    'upc',
    'quantity',
    'case_pack_quantity',
    'case_barcode',
    'vendor_pn',
    'description',
    'trackers',
  ];
  return [
    'picksheet_code',
    ...DETAIL_FIELDS,
    'facility_id',
    'brand_id',
    'retailer_id',
    'items',
    ...SHIP_TO_FIELDS.map((field) => `address_data.ship_to_contact.${field}`),
    ...BILL_TO_FIELDS.map((field) => `address_data.bill_to_contact.${field}`),
    ...MARK_FOR_FIELDS.map((field) => `address_data.mark_for_contact.${field}`),
    ...ORDER_DATE_FIELDS.map((field) => `dates.${field}`),
    ...values.items.flatMap((_, index) => itemFields.map((field) => `items.${index}.${field}`)),
  ];
}
