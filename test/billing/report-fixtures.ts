/**
 * Orders with pallets, cartons and activity for the analytics and billing tests, on the base
 * bundle (test/helpers/fixtures.ts):
 * - order 1: brand 1, retailer 1, Alpha (f1), Shipped, FREIGHT; 1 pallet, 2 cartons (SKU-A 4 +
 *   SKU-B 2, SKU-B 4); 3 carton GS1 prints (one a reprint), 1 pallet GS1 print, 1 packing slip,
 *   Pack x2, Ticketing (VAS) x3, Stretch Wrap x1; packed 2026-03-01 00:00, ASN 2026-03-02 23:59:59.999;
 * - order 2: brand 1, retailer 2, Alpha, Packed, parcel (lower case); 1 pallet, 1 carton (SKU-A 1);
 *   a parcel label, Pack x1; packed 2026-03-05 12:00, no ASN;
 * - order 3: brand 2, retailer 2, Alpha, Shipped, FREIGHT; 1 pallet, 1 carton (SKU-C 5); Pack x1,
 *   Kitting (VAS) x2; packed 2026-03-03, ASN 2026-03-04;
 * - order 4: brand 1, retailer 3, Charlie (f3, org 2), Shipped, FREIGHT; 1 pallet, 1 carton
 *   (SKU-A 2); Pack x1; packed 2026-03-02, ASN 2026-03-03;
 * - order 5: brand 1, Alpha, Cancelled (never billed), created 2026-03-06;
 * - order 6: brand 2, Charlie, Open, created 2026-03-07.
 * Brand 1 has prices (cents that add up exactly only when summed as cents); brand 2 has none.
 */
import { baseBundle, id } from '../helpers/fixtures';

export const orderId = (n: number) => `0d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const palletId = (n: number) => `1d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const cartonId = (n: number) => `2d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const sscc = (n: number) => `0061414100000000${String(n).padStart(2, '0')}`;

export function order(n: number, fields: Record<string, unknown>) {
  return {
    id: orderId(n),
    po_number: `PO-${n}`,
    picksheet_code: `PS-${n}`,
    brand_id: id('b', 1),
    retailer_id: id('r', 1),
    facility_id: id('f', 1),
    items: [{ sku: 'SKU-A', upc: '000000000011', quantity: 4 }],
    ...fields,
  };
}

function pallet(
  p: number,
  at: string,
  cartons: { c: number; skus: { sku: string; quantity: number }[] }[],
) {
  return {
    id: palletId(p),
    sscc: sscc(p),
    status: 'Loaded',
    created_at: at,
    cartons: cartons.map(({ c, skus }) => ({
      id: cartonId(c),
      sscc: sscc(50 + c),
      created_at: at,
      skus,
    })),
  };
}

export const reportOrders = () => [
  order(1, {
    status: 'Shipped',
    transportation_method: 'FREIGHT',
    items: [
      { sku: 'SKU-A', upc: '000000000011', quantity: 4 },
      { sku: 'SKU-B', quantity: 6 },
    ],
    created_at: '2026-03-01T00:00:00.000Z',
    packed_at: '2026-03-01T00:00:00.000Z',
    asn_sent_at: '2026-03-02T23:59:59.999Z',
    dates: { stage_by: '2026-03-04' },
    pallets: [
      pallet(1, '2026-03-01T00:00:00.000Z', [
        {
          c: 1,
          skus: [
            { sku: 'SKU-A', quantity: 4 },
            { sku: 'SKU-B', quantity: 2 },
          ],
        },
        { c: 2, skus: [{ sku: 'SKU-B', quantity: 4 }] },
      ]),
    ],
    activity: [
      { kind: 'LABEL_PRINT', metric: 'Carton Label Printed - GS1 Label', carton_id: cartonId(1) },
      { kind: 'LABEL_PRINT', metric: 'Carton Label Printed - GS1 Label', carton_id: cartonId(1) },
      { kind: 'LABEL_PRINT', metric: 'Carton Label Printed - GS1 Label', carton_id: cartonId(2) },
      { kind: 'LABEL_PRINT', metric: 'Pallet Label Printed - GS1 Label', pallet_id: palletId(1) },
      { kind: 'PACKING_SLIP' },
      { kind: 'ACTION', action_type: 'Carton Workflow', metric: 'Pack', count: 2 },
      { kind: 'ACTION', action_type: 'VAS', metric: 'Ticketing', count: 3 },
      { kind: 'ACTION', action_type: 'Pallet Workflow', metric: 'Stretch Wrap' },
    ],
  }),
  order(2, {
    status: 'Packed',
    retailer_id: id('r', 2),
    transportation_method: 'parcel',
    created_at: '2026-03-05T00:00:00.000Z',
    packed_at: '2026-03-05T12:00:00.000Z',
    pallets: [
      pallet(2, '2026-03-05T12:00:00.000Z', [{ c: 3, skus: [{ sku: 'SKU-A', quantity: 1 }] }]),
    ],
    activity: [
      {
        kind: 'LABEL_PRINT',
        metric: 'Carton Label Printed - Parcel Label',
        carton_id: cartonId(3),
      },
      { kind: 'ACTION', action_type: 'Carton Workflow', metric: 'Pack' },
    ],
  }),
  order(3, {
    status: 'Shipped',
    brand_id: id('b', 2),
    retailer_id: id('r', 2),
    transportation_method: 'FREIGHT',
    items: [{ sku: 'SKU-C', quantity: 5 }],
    created_at: '2026-03-03T00:00:00.000Z',
    packed_at: '2026-03-03T10:00:00.000Z',
    asn_sent_at: '2026-03-04T10:00:00.000Z',
    pallets: [
      pallet(3, '2026-03-03T10:00:00.000Z', [{ c: 4, skus: [{ sku: 'SKU-C', quantity: 5 }] }]),
    ],
    activity: [
      { kind: 'ACTION', action_type: 'Carton Workflow', metric: 'Pack' },
      { kind: 'ACTION', action_type: 'VAS', metric: 'Kitting', count: 2 },
    ],
  }),
  order(4, {
    status: 'Shipped',
    retailer_id: id('r', 3),
    facility_id: id('f', 3),
    transportation_method: 'FREIGHT',
    created_at: '2026-03-02T00:00:00.000Z',
    packed_at: '2026-03-02T10:00:00.000Z',
    asn_sent_at: '2026-03-03T10:00:00.000Z',
    pallets: [
      pallet(4, '2026-03-02T10:00:00.000Z', [{ c: 5, skus: [{ sku: 'SKU-A', quantity: 2 }] }]),
    ],
    activity: [{ kind: 'ACTION', action_type: 'Carton Workflow', metric: 'Pack' }],
  }),
  order(5, { status: 'Cancelled', created_at: '2026-03-06T00:00:00.000Z' }),
  order(6, {
    status: 'Open',
    brand_id: id('b', 2),
    facility_id: id('f', 3),
    created_at: '2026-03-07T00:00:00.000Z',
  }),
];

/** Brand 1's prices: 0.1 + 0.2 style amounts, exact only when summed in cents. */
export const brandOnePrices = () => ({
  brand_id: id('b', 1),
  prices: {
    Orders: 0.1,
    Cartons: 0.2,
    'Labels Generated': 0.07,
    'Carton Label Printed - GS1 Label': 0.01,
  },
  actions: [
    { type: 'Carton Workflow', metric: 'Pack', price_dollars: 0.1 },
    { type: 'VAS', metric: 'Ticketing', price_dollars: 0.2 },
    { type: 'Pallet Workflow', metric: 'Stretch Wrap', price_dollars: 0.3 },
  ],
});

export function reportsBundle() {
  return { ...baseBundle(), orders: reportOrders(), billing: [brandOnePrices()] };
}
