/**
 * The data of the `reports` bench: `count` orders of 3 brands at one facility, with lines and,
 * from Packed on, 2 pallets of 2 cartons (2 SKU lines each) and their activity (label prints, a
 * packing slip, Pack actions, VAS on every third order). Written with better-sqlite3 prepared
 * statements in one transaction: 100,000 orders take a few seconds.
 */
import type SQLite from 'better-sqlite3';

const uuid = (prefix: string, n: number) =>
  `${prefix}000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const reportIds = {
  organization: uuid('0a', 1),
  facility: uuid('0f', 1),
  brand: (n: number) => uuid('0b', n),
  retailer: (n: number) => uuid('0e', n),
  order: (n: number) => uuid('0d', n),
};
export const REPORT_BRANDS = 3;
export const REPORT_RETAILERS = 4;
export const REPORT_EMAIL = 'reports-admin@bench.test';
export const REPORT_PASSWORD = 'bench-password-123';

/** Organisation, facility, brands, retailers, the user and billing prices, as a seed bundle. */
export function reportsBundle() {
  const brands = Array.from({ length: REPORT_BRANDS }, (_, i) => i + 1);
  return {
    organizations: [{ id: reportIds.organization, name: 'Reports Logistics' }],
    facilities: [
      {
        id: reportIds.facility,
        organization_id: reportIds.organization,
        name: 'Reports DC',
        external_facility_code: 'RDC1',
      },
    ],
    brands: brands.map((n) => ({ brand_id: reportIds.brand(n), name: `Brand ${n}` })),
    retailers: Array.from({ length: REPORT_RETAILERS }, (_, i) => ({
      retailer_id: reportIds.retailer(i + 1),
      name: `Retailer ${i + 1}`,
    })),
    brand_facilities: brands.map((n) => ({
      brand_id: reportIds.brand(n),
      facility_id: reportIds.facility,
    })),
    users: [
      {
        email: REPORT_EMAIL,
        password: REPORT_PASSWORD,
        brand_id: null,
        facility_ids: [reportIds.facility],
        admin: brands.map((n) => ({
          brand_id: reportIds.brand(n),
          facility_id: reportIds.facility,
        })),
      },
    ],
    billing: brands.map((n) => ({
      brand_id: reportIds.brand(n),
      prices: {
        Orders: 1.25,
        Pallets: 2.5,
        Cartons: 0.4,
        Units: 0.05,
        'Carton Label Printed - GS1 Label': 0.1,
        'Packing Slips': 0.2,
      },
      actions: [
        { type: 'Carton Workflow', metric: 'Pack', price_dollars: 0.1 },
        { type: 'VAS', metric: 'Ticketing', price_dollars: 0.15 },
      ],
    })),
  };
}

const STATUSES = ['Open', 'Picking', 'Packed', 'Staged', 'Loaded', 'Shipped', 'Cancelled'];
const SKUS = ['TENT-2P', 'BAG-20F', 'STOVE-1'];

export function fillReportOrders(sqlite: SQLite.Database, count: number) {
  const order = sqlite.prepare(
    `INSERT INTO orders (id, brand_id, retailer_id, facility_id, picksheet_code, po_number,
       transportation_method, status, created_at, updated_at, packed_at, asn_sent_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const item = sqlite.prepare(
    `INSERT INTO order_items (id, order_id, line_number, sku, upc, quantity) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const pallet = sqlite.prepare(
    `INSERT INTO pallets (id, order_id, sscc, status, created_at) VALUES (?, ?, ?, ?, ?)`,
  );
  const carton = sqlite.prepare(
    `INSERT INTO cartons (id, order_id, pallet_id, sscc, created_at) VALUES (?, ?, ?, ?, ?)`,
  );
  const cartonSku = sqlite.prepare(
    `INSERT INTO carton_skus (id, carton_id, sku, upc, quantity) VALUES (?, ?, ?, ?, ?)`,
  );
  const activity = sqlite.prepare(
    `INSERT INTO order_activity (id, order_id, kind, action_type, metric, count, carton_id,
       pallet_id, sscc, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let serial = 0;
  const next = (prefix: string) => uuid(prefix, ++serial);
  const sscc = () => `00${String(serial).padStart(16, '0')}`;
  sqlite.transaction(() => {
    for (let n = 1; n <= count; n++) {
      const id = reportIds.order(n);
      const status = STATUSES[n % STATUSES.length]!;
      const at = new Date(Date.UTC(2025, 0, 1) + n * 300_000).toISOString();
      const packed = ['Packed', 'Staged', 'Loaded', 'Shipped'].includes(status);
      order.run(
        id,
        reportIds.brand(1 + (n % REPORT_BRANDS)),
        reportIds.retailer(1 + (n % REPORT_RETAILERS)),
        reportIds.facility,
        `PS-${n}`,
        `PO-${n}`,
        n % 5 === 0 ? 'PARCEL' : 'FREIGHT',
        status,
        at,
        at,
        packed ? at : null,
        status === 'Shipped' ? at : null,
      );
      SKUS.forEach((sku, i) => item.run(next('1a'), id, i, sku, `0810001000${i}`, 12 * (i + 1)));
      if (!packed) continue;
      for (let p = 0; p < 2; p++) {
        const palletId = next('1d');
        const palletSscc = sscc();
        pallet.run(palletId, id, palletSscc, 'Open', at);
        activity.run(
          next('3a'),
          id,
          'LABEL_PRINT',
          null,
          'Pallet Label Printed - GS1 Label',
          1,
          null,
          palletId,
          palletSscc,
          at,
        );
        for (let c = 0; c < 2; c++) {
          const cartonId = next('2d');
          const cartonSscc = sscc();
          carton.run(cartonId, id, palletId, cartonSscc, at);
          cartonSku.run(next('2e'), cartonId, SKUS[c]!, null, 6);
          cartonSku.run(next('2e'), cartonId, SKUS[2]!, null, 3);
          activity.run(
            next('3a'),
            id,
            'LABEL_PRINT',
            null,
            'Carton Label Printed - GS1 Label',
            1,
            cartonId,
            null,
            cartonSscc,
            at,
          );
          activity.run(
            next('3a'),
            id,
            'ACTION',
            'Carton Workflow',
            'Pack',
            1,
            cartonId,
            null,
            null,
            at,
          );
        }
      }
      activity.run(next('3a'), id, 'PACKING_SLIP', null, 'Packing Slips', 1, null, null, null, at);
      if (n % 3 === 0) {
        activity.run(next('3a'), id, 'ACTION', 'VAS', 'Ticketing', 3, null, null, null, at);
      }
    }
  })();
}
