/** Seeded orders for the read tests (details, list, seed): the base bundle plus `orders`. */
import { baseBundle, id } from '../helpers/fixtures';
import { TEST_PASSWORD } from '../helpers/service';

export const orderId = (n: number) => `0d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const palletId = (n: number) => `1d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const cartonId = (n: number) => `2d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A bundle order; tests spoil or extend any field. */
export interface SeedOrderFixture {
  id: string;
  status: string;
  po_number: string;
  picksheet_code: string;
  brand_id: string;
  retailer_id: string;
  facility_id: string;
  items: { sku: string; upc?: string; quantity: number }[];
  [field: string]: unknown;
}

/** A seed order: brand 1, retailer 1, Alpha DC unless overridden. */
export function seedOrder(n: number, overrides: Record<string, unknown> = {}): SeedOrderFixture {
  return {
    id: orderId(n),
    status: 'Open',
    po_number: `PO-${1000 + n}`,
    picksheet_code: `PS-${1000 + n}`,
    external_order_id: `EXT-${1000 + n}`,
    brand_id: id('b', 1),
    retailer_id: id('r', 1),
    facility_id: id('f', 1),
    items: [
      { sku: 'SKU-A', upc: '000000000011', quantity: 4 },
      { sku: 'SKU-B', quantity: 6 },
    ],
    created_at: `2026-01-${String(n).padStart(2, '0')}T10:00:00.000Z`,
    ...overrides,
  };
}

/**
 * Order 1, Loaded, with two pallets: pallet 1 holds two cartons (the first with two SKU lines and
 * serial numbers), pallet 2 one carton without SKU lines and no measures.
 */
export function loadedOrder() {
  return seedOrder(1, {
    status: 'Loaded',
    transportation_method: 'FREIGHT',
    carrier: 'XPO Logistics',
    dept_number: '42',
    purchase_order_type: 'SA',
    bill_of_lading_number: 'BOL-1',
    pro_number: 'PRO-1',
    carrier_alpha_code: 'XPOL',
    external_load_number: 'LD-1',
    address_data: {
      ship_to_contact: { name: 'DC 7', city: 'Reno', zip: '89501' },
      bill_to_contact: { name: 'AP', email: 'ap@retailer.example' },
      mark_for_contact: { name: 'Store 12', state: 'NV' },
    },
    dates: { requested_delivery_date: '2026-02-10', stage_by: '2026-02-01' },
    created_at: '2026-01-05T10:00:00Z',
    updated_at: '2026-01-07T16:30:00.000Z',
    started_at: '2026-01-06T08:00:00+02:00',
    packed_at: '2026-01-06T12:00:00.000Z',
    staged_at: '2026-01-07T09:00:00.000Z',
    loaded_at: '2026-01-07T16:30:00.000Z',
    pallets: [
      {
        id: palletId(1),
        sscc: '006141410000000018',
        status: 'Loaded',
        created_at: '2026-01-06T11:00:00.000Z',
        staged_by: 'sam',
        staged_at: '2026-01-07T09:00:00.000Z',
        dim_unit: 'in',
        height: 48,
        width: 40,
        length: 48,
        weight_unit: 'lb',
        weight: 210.5,
        cartons: [
          {
            id: cartonId(1),
            sscc: '006141410000000025',
            created_at: '2026-01-06T10:00:00.000Z',
            packed_by: 'dev',
            packing_complete_at: '2026-01-06T10:05:00.000Z',
            dim_unit: 'in',
            height: 12,
            width: 16,
            length: 20,
            weight_unit: 'lb',
            weight: 14.2,
            skus: [
              { sku: 'SKU-A', upc: '000000000011', quantity: 4, serial_numbers: ['S1', 'S2'] },
              { sku: 'SKU-B', quantity: 2 },
            ],
          },
          {
            id: cartonId(2),
            sscc: '006141410000000032',
            created_at: '2026-01-06T10:10:00.000Z',
            skus: [{ sku: 'SKU-B', quantity: 4 }],
          },
        ],
      },
      {
        id: palletId(2),
        status: 'Loaded',
        created_at: '2026-01-06T11:30:00.000Z',
        cartons: [{ id: cartonId(3), created_at: '2026-01-06T10:20:00.000Z' }],
      },
    ],
  });
}

/**
 * Orders across brands, facilities and retailers:
 * 1 brand 1 / Alpha / retailer 1, Loaded (pallets); 2 brand 2 / Alpha / retailer 2, Open;
 * 3 brand 1 / Charlie (org 2) / retailer 3, Picking; 4 brand 2 / Charlie / retailer 2, Shipped.
 */
export function ordersBundle() {
  const bundle = baseBundle();
  return {
    ...bundle,
    users: [
      ...bundle.users,
      // Brand-less, Bravo DC only: the same organisation as Alpha, another facility.
      {
        email: 'bravo@a.test',
        password: TEST_PASSWORD,
        brand_id: null,
        facility_ids: [id('f', 2)],
        admin: [],
      },
    ],
    orders: [
      loadedOrder(),
      seedOrder(2, { brand_id: id('b', 2), retailer_id: id('r', 2) }),
      seedOrder(3, { facility_id: id('f', 3), retailer_id: id('r', 3), status: 'Picking' }),
      seedOrder(4, {
        brand_id: id('b', 2),
        retailer_id: id('r', 2),
        facility_id: id('f', 3),
        status: 'Shipped',
      }),
    ],
  };
}
