import type { Insertable, Updateable } from 'kysely';
import type { OrderItemRow } from './queries';
import type { OrderItemsTable, OrdersTable } from '../db/schema';
import type {
  AddressData,
  CreateOrderItem,
  OrderDates,
  UpdateOrderItem,
} from '../../shared/orders';
import { ORDER_DATE_FIELDS } from '../../shared/orders';

type NewItemRow = Omit<Insertable<OrderItemsTable>, 'order_id'>;

const jsonOrNull = (value: unknown) =>
  value === undefined || value === null ? null : JSON.stringify(value);

/** The create body's lines as rows. */
export function createItemRows(items: CreateOrderItem[]): NewItemRow[] {
  return items.map((item, index) => ({
    id: crypto.randomUUID(),
    line_number: index,
    sku: item.sku,
    upc: item.upc ?? null,
    quantity: item.quantity,
    case_pack_quantity: item.case_pack_quantity ?? null,
    case_barcode: item.case_barcode ?? null,
    vendor_pn: item.vendor_pn ?? null,
    description: item.description ?? null,
    trackers_json: null,
    pass_through_json: null,
  }));
}

/**
 * The update body's lines as rows. A field the line leaves out (the interface's update item has
 * no case pack, barcode, vendor part number or description) keeps the value of the order's
 * current line with the same SKU; an explicit null clears it.
 */
export function updateItemRows(items: UpdateOrderItem[], current: OrderItemRow[]): NewItemRow[] {
  const bySku = new Map<string, OrderItemRow>();
  for (const line of current) if (!bySku.has(line.sku)) bySku.set(line.sku, line);
  return items.map((item, index) => {
    const before = bySku.get(item.sku);
    const kept = <K extends keyof OrderItemRow>(given: OrderItemRow[K] | undefined, key: K) =>
      given === undefined ? (before?.[key] ?? null) : given;
    return {
      id: crypto.randomUUID(),
      line_number: index,
      sku: item.sku,
      upc: kept(item.upc, 'upc'),
      quantity: item.quantity,
      case_pack_quantity: kept(item.case_pack_quantity, 'case_pack_quantity'),
      case_barcode: kept(item.case_barcode, 'case_barcode'),
      vendor_pn: kept(item.vendor_pn, 'vendor_pn'),
      description: kept(item.description, 'description'),
      trackers_json: jsonOrNull(item.trackers),
      pass_through_json: jsonOrNull(item.pass_through),
    };
  });
}

const ADDRESS_COLUMNS = {
  ship_to_contact: 'ship_to_json',
  bill_to_contact: 'bill_to_json',
  mark_for_contact: 'mark_for_json',
} as const;

/** Columns for the contacts given; a contact left out is not in the result (stays as it is). */
export function addressColumns(address: AddressData | null | undefined): Updateable<OrdersTable> {
  const columns: Updateable<OrdersTable> = {};
  if (!address) return columns;
  for (const [key, column] of Object.entries(ADDRESS_COLUMNS) as [
    keyof typeof ADDRESS_COLUMNS,
    (typeof ADDRESS_COLUMNS)[keyof typeof ADDRESS_COLUMNS],
  ][]) {
    if (address[key] !== undefined) columns[column] = jsonOrNull(address[key]);
  }
  return columns;
}

/** Columns for the dates given; a date left out is not in the result. */
export function dateColumns(dates: OrderDates | null | undefined): Updateable<OrdersTable> {
  const columns: Updateable<OrdersTable> = {};
  if (!dates) return columns;
  for (const field of ORDER_DATE_FIELDS) {
    if (dates[field] !== undefined) columns[field] = dates[field];
  }
  return columns;
}

/** The plain text fields shared by the create and update bodies. */
export const ORDER_TEXT_FIELDS = [
  'po_number',
  'external_order_id',
  'dept_number',
  'purchase_order_type',
  'transportation_method',
  'carrier',
] as const;

/** Columns for the text fields given (undefined = left out). */
export function textColumns(
  body: Partial<Record<(typeof ORDER_TEXT_FIELDS)[number], string | null | undefined>>,
): Updateable<OrdersTable> {
  const columns: Updateable<OrdersTable> = {};
  for (const field of ORDER_TEXT_FIELDS) {
    if (body[field] !== undefined) columns[field] = body[field];
  }
  return columns;
}
