/** The request fields a file column can feed, in table order. */
export const ITEM_FIELDS = [
  'sku',
  'available_quantity',
  'status',
  'estimated_back_in_stock_date',
] as const;
export type ItemField = (typeof ITEM_FIELDS)[number];

export const FIELD_LABELS: Record<ItemField, string> = {
  sku: 'SKU',
  available_quantity: 'Available quantity',
  status: 'Status',
  estimated_back_in_stock_date: 'Back in stock',
};

/** Header names each field answers to, already normalised (see `normaliseHeader`). */
const ALIASES: Record<ItemField, readonly string[]> = {
  sku: [
    'sku',
    'skus',
    'skucode',
    'skuid',
    'skunumber',
    'skuno',
    'item',
    'itemnumber',
    'itemno',
    'itemnum',
    'itemcode',
    'itemid',
    'itemsku',
    'productsku',
    'productcode',
    'productid',
    'stockkeepingunit',
    'partnumber',
    'partno',
    'vendorsku',
    'article',
    'articlenumber',
  ],
  available_quantity: [
    'availablequantity',
    'available',
    'availableqty',
    'availabletosell',
    'ats',
    'qty',
    'qtyavailable',
    'qtyonhand',
    'quantity',
    'quantityavailable',
    'quantityonhand',
    'onhand',
    'onhandqty',
    'onhandquantity',
    'stock',
    'stockqty',
    'stockquantity',
    'inventory',
    'inventoryqty',
    'units',
  ],
  status: [
    'status',
    'stockstatus',
    'inventorystatus',
    'itemstatus',
    'availability',
    'availabilitystatus',
    'outofstockreason',
    'oosreason',
    'reason',
  ],
  estimated_back_in_stock_date: [
    'estimatedbackinstockdate',
    'estimatedbackinstock',
    'backinstock',
    'backinstockdate',
    'backinstockon',
    'expectedbackinstock',
    'expectedbackinstockdate',
    'eta',
    'etadate',
    'restock',
    'restockdate',
    'restocketa',
    'nextavailable',
    'nextavailabledate',
    'availabledate',
  ],
};

/** `Back In Stock`, `back_in_stock`, `back-in-stock` and `"BackInStock "` all become `backinstock`. */
export function normaliseHeader(header: unknown): string {
  return String(header ?? '')
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_\-.#/()]+/g, '');
}

const FIELD_OF_HEADER = new Map<string, ItemField>(
  ITEM_FIELDS.flatMap((field) => ALIASES[field].map((alias) => [alias, field] as const)),
);

/** The field a header names, if any. */
export function fieldForHeader(header: unknown): ItemField | undefined {
  return FIELD_OF_HEADER.get(normaliseHeader(header));
}

export interface ColumnMatch {
  /** Zero-based column index of each recognised field. */
  indexes: Partial<Record<ItemField, number>>;
  /** The header text each recognised field was read from. */
  headers: Partial<Record<ItemField, string>>;
  /** Non-empty headers that feed no field (the first of two columns naming one field wins). */
  ignored: string[];
}

/** Which column feeds which field; the first column naming a field wins. */
export function matchColumns(headerRow: readonly unknown[]): ColumnMatch {
  const match: ColumnMatch = { indexes: {}, headers: {}, ignored: [] };
  headerRow.forEach((cell, index) => {
    const text = String(cell ?? '').trim();
    const field = fieldForHeader(text);
    if (field && match.indexes[field] === undefined) {
      match.indexes[field] = index;
      match.headers[field] = text;
    } else if (text !== '') {
      match.ignored.push(text);
    }
  });
  return match;
}

/** The required fields no column feeds. */
export function missingRequiredFields(match: ColumnMatch): ItemField[] {
  return (['sku', 'available_quantity'] as const).filter(
    (field) => match.indexes[field] === undefined,
  );
}

/**
 * The header names listed on screen for each field, as a clerk would write them. Case, spaces,
 * `_`, `-` and `.` do not matter; every name here is one `fieldForHeader` accepts (tested).
 */
export const HEADER_EXAMPLES: Record<ItemField, readonly string[]> = {
  sku: [
    'sku',
    'SKU code',
    'Item',
    'Item number',
    'Item no',
    'Item code',
    'Product code',
    'Product ID',
    'Part number',
    'Vendor SKU',
    'Article number',
  ],
  available_quantity: [
    'available_quantity',
    'Available',
    'Qty',
    'Quantity',
    'Qty available',
    'On hand',
    'Qty on hand',
    'Stock',
    'ATS',
    'Inventory',
    'Units',
  ],
  status: ['status', 'Stock status', 'Inventory status', 'Availability', 'Reason', 'OOS reason'],
  estimated_back_in_stock_date: [
    'estimated_back_in_stock_date',
    'Back in stock',
    'Back in stock date',
    'Expected back in stock',
    'ETA',
    'Restock date',
    'Next available',
  ],
};
