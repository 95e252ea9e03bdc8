import { TEST_PASSWORD } from './service';

/** Readable fixed ids: `id('f', 1)` is facility 1. */
export const id = (kind: 'o' | 'f' | 'b' | 'r' | 'c', n: number) =>
  `${{ o: '0a', f: '0f', b: '0b', r: '0e', c: '0c' }[kind]}000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * Two organisations, three facilities, two brands, three retailers and users with different reach:
 * - admin@a.test: brand-less, facilities 1 and 2 (org 1), admin for brand 1 at facility 1;
 * - brand1@a.test: brand 1, facilities 1, 2 and 3, admin for brand 1 at facilities 1 and 3;
 * - brand2@b.test: brand 2, facility 3 only (org 2);
 * - viewer@a.test: brand-less, facility 1, no admin grants.
 */
export function baseBundle() {
  return {
    organizations: [
      { id: id('o', 1), name: 'Org One' },
      { id: id('o', 2), name: 'Org Two' },
    ],
    facilities: [
      {
        id: id('f', 1),
        organization_id: id('o', 1),
        name: 'Alpha DC',
        external_facility_code: 'ALP',
      },
      {
        id: id('f', 2),
        organization_id: id('o', 1),
        name: 'Bravo DC',
        external_facility_code: 'BRV',
      },
      {
        id: id('f', 3),
        organization_id: id('o', 2),
        name: 'Charlie DC',
        external_facility_code: 'CHL',
      },
    ],
    brands: [
      { brand_id: id('b', 1), name: 'Brand One', external_brand_code: 'B1' },
      { brand_id: id('b', 2), name: 'Brand Two', external_brand_code: null },
    ],
    retailers: [
      { retailer_id: id('r', 1), name: 'Retailer One' },
      { retailer_id: id('r', 2), name: 'Retailer Two' },
      { retailer_id: id('r', 3), name: 'Retailer Three' },
    ],
    brand_facilities: [
      { brand_id: id('b', 1), facility_id: id('f', 1) },
      { brand_id: id('b', 1), facility_id: id('f', 3) },
      { brand_id: id('b', 2), facility_id: id('f', 1) },
      { brand_id: id('b', 2), facility_id: id('f', 3) },
    ],
    users: [
      {
        email: 'admin@a.test',
        password: TEST_PASSWORD,
        brand_id: null,
        facility_ids: [id('f', 1), id('f', 2)],
        admin: [{ brand_id: id('b', 1), facility_id: id('f', 1) }],
      },
      {
        email: 'brand1@a.test',
        password: TEST_PASSWORD,
        brand_id: id('b', 1),
        facility_ids: [id('f', 1), id('f', 2), id('f', 3)],
        admin: [
          { brand_id: id('b', 1), facility_id: id('f', 1) },
          { brand_id: id('b', 1), facility_id: id('f', 3) },
        ],
      },
      {
        email: 'brand2@b.test',
        password: TEST_PASSWORD,
        brand_id: id('b', 2),
        facility_ids: [id('f', 3)],
        admin: [{ brand_id: id('b', 2), facility_id: id('f', 3) }],
      },
      {
        email: 'viewer@a.test',
        password: TEST_PASSWORD,
        brand_id: null,
        facility_ids: [id('f', 1)],
        admin: [],
      },
    ],
    connections: [
      {
        id: id('c', 1),
        organization_id: id('o', 1),
        brand_id: id('b', 1),
        retailer_id: id('r', 1),
        kind: 'EDI_846',
        enabled: true,
        transport: { type: 'file', directory: 'outbox/r1' },
        edi: {
          sender_qualifier: 'ZZ',
          sender_id: 'SENDER1',
          receiver_qualifier: 'ZZ',
          receiver_id: 'RECEIVER1',
          version: '004010',
          usage_indicator: 'T',
        },
      },
      {
        id: id('c', 2),
        organization_id: id('o', 1),
        brand_id: id('b', 2),
        retailer_id: id('r', 2),
        kind: 'DIRECT_API',
        enabled: true,
        transport: { type: 'file', directory: 'outbox/r2' },
      },
      {
        id: id('c', 3),
        organization_id: id('o', 2),
        brand_id: id('b', 1),
        retailer_id: id('r', 3),
        kind: 'DIRECT_API',
        enabled: true,
        transport: { type: 'file', directory: 'outbox/r3' },
      },
    ],
  };
}

/**
 * A brand-less user who is an admin (for the first brand) at every facility of `bundle`: the
 * install's admin, who may change what belongs to the whole machine (the printer, sync).
 */
export function installAdmin(
  bundle: { facilities: { id: string }[]; brands: { brand_id: string }[] },
  email = 'install@a.test',
) {
  return {
    email,
    password: TEST_PASSWORD,
    brand_id: null,
    facility_ids: [] as string[],
    admin: bundle.facilities.map((f) => ({
      brand_id: bundle.brands[0]!.brand_id,
      facility_id: f.id,
    })),
  };
}

/**
 * The base bundle plus brand-less users of facility 1 without admin grants, for tests that need
 * users of their own (failure counts that stay independent).
 */
export function baseBundleWithViewers(emails: string[]) {
  const bundle = baseBundle();
  const viewers = emails.map((email) => ({
    email,
    password: TEST_PASSWORD,
    brand_id: null,
    facility_ids: [id('f', 1)],
    admin: [],
  }));
  return { ...bundle, users: [...bundle.users, ...viewers] };
}

/**
 * The base bundle plus what order tests need:
 * - facility 4 (Delta DC, org 1), where brand 1 works;
 * - a connection of brand 1 to retailer 1 in org 2, so brand 1's retailer-1 orders can move to
 *   Charlie;
 * - ops@a.test: brand-less, facilities 1, 2, 3 and 4;
 * - charlie1@b.test: brand 1 like brand1@a.test, but only facility 3 (another organisation).
 */
export function ordersBundle() {
  const bundle = baseBundle();
  return {
    ...bundle,
    facilities: [
      ...bundle.facilities,
      {
        id: id('f', 4),
        organization_id: id('o', 1),
        name: 'Delta DC',
        external_facility_code: 'DLT',
      },
    ],
    brand_facilities: [
      ...bundle.brand_facilities,
      { brand_id: id('b', 1), facility_id: id('f', 4) },
    ],
    users: [
      ...bundle.users,
      {
        email: 'ops@a.test',
        password: TEST_PASSWORD,
        brand_id: null,
        facility_ids: [id('f', 1), id('f', 2), id('f', 3), id('f', 4)],
        admin: [],
      },
      {
        email: 'charlie1@b.test',
        password: TEST_PASSWORD,
        brand_id: id('b', 1),
        facility_ids: [id('f', 3)],
        admin: [{ brand_id: id('b', 1), facility_id: id('f', 3) }],
      },
    ],
    connections: [
      ...bundle.connections,
      {
        id: id('c', 4),
        organization_id: id('o', 2),
        brand_id: id('b', 1),
        retailer_id: id('r', 1),
        kind: 'DIRECT_API',
        enabled: true,
        transport: { type: 'file', directory: 'outbox/r1-org2' },
      },
    ],
  };
}
