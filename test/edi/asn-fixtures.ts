/** Packed orders for the 856 tests: a freight order on pallets and a parcel order. */
import type { AsnFacts } from '../../src/server/edi/asn-856';
import { gs1CheckDigit } from '../../src/shared/sscc';

export const ssccOf = (extension: number, serial: number): string => {
  const body = `${extension}0614141${String(serial).padStart(9, '0')}`;
  return body + String(gs1CheckDigit(body));
};

export const ediSettings = {
  sender_qualifier: 'ZZ',
  sender_id: 'ACMEWH',
  receiver_qualifier: 'ZZ',
  receiver_id: 'BIGRETAIL',
  version: '004010',
  usage_indicator: 'P' as const,
};

const common = {
  createdAt: new Date('2026-03-04T15:30:00Z'),
  shippedAt: new Date('2026-03-04T15:29:00Z'),
  poNumber: 'PO-4500012345',
  deptNumber: '042',
  shipFrom: {
    name: 'Acme Warehouse East',
    code: 'WH-EAST',
    address1: '1 Dock Road',
    city: 'Newark',
    state: 'NJ',
    zip: '07102',
    country: 'US',
  },
  shipTo: {
    name: 'Big Retail DC 6021',
    code: '6021',
    address1: '600 Distribution Way',
    address2: 'Door 14',
    city: 'Columbus',
    state: 'OH',
    zip: '43217',
    country: 'US',
  },
};

export const freightOrder: AsnFacts = {
  ...common,
  shipmentId: 'BOL-778812',
  billOfLadingNumber: 'BOL-778812',
  proNumber: 'PRO99812',
  carrier: 'Old Dominion Freight Line',
  carrierAlphaCode: 'ODFL',
  transportationMethod: 'LTL',
  pallets: [
    { id: 'p1', sscc: ssccOf(1, 1), weight: 410.5, weight_unit: 'lb' },
    { id: 'p2', sscc: ssccOf(1, 2), weight: 300, weight_unit: 'lb' },
  ],
  cartons: [
    {
      id: 'c1',
      sscc: ssccOf(0, 11),
      pallet_id: 'p1',
      parcel_tracking_number: null,
      weight: 20,
      weight_unit: 'lb',
      lines: [
        { sku: 'SKU-RED-M', upc: '012345678905', quantity: 6 },
        { sku: 'SKU-BLUE-L', upc: null, quantity: 4 },
      ],
    },
    {
      id: 'c2',
      sscc: ssccOf(0, 12),
      pallet_id: 'p1',
      parcel_tracking_number: null,
      weight: 20,
      weight_unit: 'lb',
      lines: [
        { sku: 'SKU-RED-M', upc: '012345678905', quantity: 5 },
        { sku: 'SKU-RED-M', upc: '012345678905', quantity: 5 },
      ],
    },
    {
      id: 'c3',
      sscc: ssccOf(0, 13),
      pallet_id: 'p2',
      parcel_tracking_number: null,
      weight: 18,
      weight_unit: 'lb',
      lines: [{ sku: 'SKU-BLUE-L', upc: null, quantity: 8 }],
    },
  ],
};

export const parcelOrder: AsnFacts = {
  ...common,
  shipmentId: 'PS-1001',
  billOfLadingNumber: null,
  proNumber: null,
  carrier: 'UPS Ground',
  carrierAlphaCode: 'UPSN',
  transportationMethod: 'PARCEL',
  pallets: [],
  cartons: [
    {
      id: 'c1',
      sscc: ssccOf(0, 21),
      pallet_id: null,
      parcel_tracking_number: '1Z999AA10123456784',
      weight: 3.2,
      weight_unit: 'lb',
      lines: [{ sku: 'SKU-RED-M', upc: '012345678905', quantity: 2 }],
    },
    {
      id: 'c2',
      sscc: ssccOf(0, 22),
      pallet_id: null,
      parcel_tracking_number: null,
      weight: 2.8,
      weight_unit: 'lb',
      lines: [{ sku: 'SKU-BLUE-L', upc: null, quantity: 1 }],
    },
  ],
};
