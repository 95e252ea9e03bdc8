/** The bench's seed bundle and advice body: one brand at one facility, 8 http connections. */
import type { EdiSettings } from '../src/server/inventory/transmission/types';

export const BENCH_PASSWORD = 'bench-password-123';
export const BENCH_EMAIL = 'bench-admin@bench.test';

const uuid = (prefix: string, n: number) =>
  `${prefix}000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const ids = {
  organization: uuid('0a', 1),
  facility: uuid('0f', 1),
  /** Not in the bundle: the advice URL with it answers 404 before any advice work. */
  unknownFacility: uuid('0f', 999),
  brand: uuid('0b', 1),
  retailer: (n: number) => uuid('0e', n),
  connection: (n: number) => uuid('0c', n),
};

/** The EDI settings of bench connection 1, for building its 846 outside the service. */
export const BENCH_EDI: EdiSettings = {
  sender_qualifier: 'ZZ',
  sender_id: 'BENCHSENDER',
  receiver_qualifier: 'ZZ',
  receiver_id: 'BENCHRCV1',
  version: '004010',
  usage_indicator: 'T',
};

/** Connections 1-4 are EDI_846, 5-8 DIRECT_API; connection i POSTs to receiverUrls[i - 1]. */
export function benchBundle(receiverUrls: readonly string[]) {
  const connections = receiverUrls.map((url, index) => {
    const n = index + 1;
    const edi = n <= 4;
    return {
      id: ids.connection(n),
      organization_id: ids.organization,
      brand_id: ids.brand,
      retailer_id: ids.retailer(n),
      kind: edi ? 'EDI_846' : 'DIRECT_API',
      enabled: true,
      transport: { type: 'http', url, headers: { Authorization: `Bearer partner-${n}` } },
      ...(edi
        ? {
            edi: {
              sender_qualifier: 'ZZ',
              sender_id: 'BENCHSENDER',
              receiver_qualifier: 'ZZ',
              receiver_id: `BENCHRCV${n}`,
              version: '004010',
              usage_indicator: 'T',
            },
          }
        : {}),
    };
  });
  return {
    organizations: [{ id: ids.organization, name: 'Bench Logistics' }],
    facilities: [
      {
        id: ids.facility,
        organization_id: ids.organization,
        name: 'Bench DC',
        external_facility_code: 'BDC1',
      },
    ],
    brands: [{ brand_id: ids.brand, name: 'Bench Brand', external_brand_code: 'BB' }],
    retailers: receiverUrls.map((_, index) => ({
      retailer_id: ids.retailer(index + 1),
      name: `Bench Retailer ${index + 1}`,
    })),
    brand_facilities: [{ brand_id: ids.brand, facility_id: ids.facility }],
    users: [
      {
        email: BENCH_EMAIL,
        password: BENCH_PASSWORD,
        brand_id: null,
        facility_ids: [ids.facility],
        admin: [{ brand_id: ids.brand, facility_id: ids.facility }],
      },
    ],
    connections,
  };
}

export interface BenchItem {
  sku: string;
  available_quantity: number;
  status?: 'DISCONTINUED';
}

/**
 * `count` items with a deterministic mix of quantities (mostly small, some large, every 50th
 * zero and DISCONTINUED, since a direct-feed connection requires a status at 0).
 */
export function benchItems(count: number): BenchItem[] {
  let seed = 0x2f6b_1a3d;
  const random = () => {
    // xorshift32: deterministic, so every run sends the same body.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x1_0000_0000;
  };
  return Array.from({ length: count }, (_, index): BenchItem => {
    const sku = `BB-${String(index + 1).padStart(6, '0')}-${['S', 'M', 'L', 'XL'][index % 4]}`;
    if (index % 50 === 49) return { sku, available_quantity: 0, status: 'DISCONTINUED' };
    const roll = random();
    const available_quantity =
      roll < 0.6
        ? 1 + Math.floor(random() * 50)
        : roll < 0.95
          ? 50 + Math.floor(random() * 950)
          : 1000 + Math.floor(random() * 250_000);
    return { sku, available_quantity };
  });
}
