import fc from 'fast-check';
import type { PullCentral } from './pull-fixture';

/**
 * The random worlds of the pull scope property (pull-scope.property.test.ts): two organisations'
 * facilities, brands, grants, orders, log rows, snapshots, deliveries, connections, conflicts
 * and claims, and a device serving some of the facilities.
 */
export const SECRET = 'secret-do-not-leak';
export const DEVICE_IDS = [0, 1, 2].map((i) => `d0000000-0000-4000-8000-00000000000${i}`);
export const RETAILER = 'e0000000-0000-4000-8000-000000000001';

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
export const world = fc.record({
  facilitiesPerOrg: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 })),
  brands: fc.integer({ min: 1, max: 4 }),
  links: fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
  users: fc.array(
    fc.record({ grants: fc.array(fc.nat(), { maxLength: 2 }), admin: maybe(fc.nat()) }),
    { maxLength: 4 },
  ),
  orders: fc.array(fc.record({ facility: fc.nat(), brand: fc.nat(), items: fc.nat(2) }), {
    maxLength: 6,
  }),
  logs: fc.array(fc.record({ facility: maybe(fc.nat()), brand: maybe(fc.nat()) }), {
    maxLength: 8,
  }),
  connections: fc.array(
    fc.record({
      org: fc.nat(1),
      brand: fc.nat(),
      sender: fc.constantFrom('central', 'workstation'),
    }),
    { maxLength: 4 },
  ),
  snapshots: fc.array(fc.record({ facility: maybe(fc.nat()), brand: fc.nat() }), {
    maxLength: 5,
  }),
  deliveries: fc.array(fc.record({ snapshot: fc.nat(), connection: maybe(fc.nat()) }), {
    maxLength: 6,
  }),
  conflicts: fc.array(fc.record({ facility: maybe(fc.nat()), client: fc.nat(2) }), {
    maxLength: 4,
  }),
  chargebacks: fc.array(fc.nat(), { maxLength: 3 }),
  device: fc.record({
    client: fc.nat(2),
    facilities: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
  }),
});
export type World = typeof world extends fc.Arbitrary<infer T> ? T : never;

const pick = <T>(list: T[], index: number): T => list[index % list.length]!;
const id = (prefix: string, i: number) =>
  `${prefix}000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** Writes the world on a central; returns the device and the ids it must be confined to. */
export function build(central: Pick<PullCentral, 'insert'>, w: World) {
  const orgs = [id('a0', 1), id('a0', 2)];
  for (const org of orgs) central.insert('organizations', { id: org });
  const facilities: { id: string; org: string }[] = [];
  w.facilitiesPerOrg.forEach((count, o) => {
    for (let i = 0; i < count; i += 1) {
      const facility = { id: id('f0', facilities.length + 1), org: orgs[o]! };
      central.insert('facilities', { id: facility.id, organization_id: facility.org });
      facilities.push(facility);
    }
  });
  const brands = Array.from({ length: w.brands }, (_, i) => id('b0', i + 1));
  for (const brand of brands) central.insert('brands', { id: brand });
  central.insert('retailers', { id: RETAILER });
  const links: [string, string][] = [];
  brands.forEach((brand, b) =>
    facilities.forEach((facility, f) => {
      if (w.links[(b * 6 + f) % w.links.length]) links.push([brand, facility.id]);
    }),
  );
  for (const [brand_id, facility_id] of links) {
    central.insert('brand_facilities', { brand_id, facility_id });
  }
  w.users.forEach((user, u) => {
    const userId = id('c0', u + 1);
    central.insert('users', { id: userId, email: `u${u}@example.com` });
    for (const g of new Set(user.grants.map((g) => pick(facilities, g).id))) {
      central.insert('user_facilities', { user_id: userId, facility_id: g });
    }
    if (user.admin !== null && links.length > 0) {
      const [brand_id, facility_id] = pick(links, user.admin);
      central.insert('user_admin', { user_id: userId, brand_id, facility_id });
    }
  });
  w.orders.forEach((order, o) => {
    const inserted = central.insert('orders', {
      brand_id: pick(brands, order.brand),
      retailer_id: RETAILER,
      facility_id: pick(facilities, order.facility).id,
      picksheet_code: `PS-${o}`,
    });
    for (let line = 1; line <= order.items; line += 1) {
      central.insert('order_items', { order_id: inserted.id, line_number: line });
    }
  });
  for (const log of w.logs) {
    central.insert('transactions', {
      facility_id: log.facility === null ? null : pick(facilities, log.facility).id,
      brand_id: log.brand === null ? null : pick(brands, log.brand),
    });
  }
  const connections = w.connections.map((c) =>
    central.insert('connections', {
      organization_id: orgs[c.org],
      brand_id: pick(brands, c.brand),
      retailer_id: RETAILER,
      sender: c.sender,
      transport_json: JSON.stringify({
        type: 'http',
        url: `https://${SECRET}:${SECRET}@partner.example/feed?key=${SECRET}`,
        headers: { Authorization: SECRET },
      }),
    }),
  );
  const snapshots = w.snapshots.map((s) =>
    central.insert('advice_snapshots', {
      brand_id: pick(brands, s.brand),
      facility_id: s.facility === null ? null : pick(facilities, s.facility).id,
    }),
  );
  if (snapshots.length > 0) {
    for (const d of w.deliveries) {
      const connection =
        d.connection === null || connections.length === 0 ? null : pick(connections, d.connection);
      central.insert('advice_deliveries', {
        snapshot_id: pick(snapshots, d.snapshot).id,
        connection_id: connection?.id ?? null,
        organization_id: connection?.organization_id ?? null,
      });
    }
  }
  for (const c of w.conflicts) {
    central.insert('sync_conflicts', {
      client_id: DEVICE_IDS[c.client],
      facility_id: c.facility === null ? null : pick(facilities, c.facility).id,
    });
  }
  for (const b of w.chargebacks) {
    central.insert('chargebacks', {
      brand_id: pick(brands, b),
      retailer_id: RETAILER,
      chargeback_id: `CB-${b}`,
      amount_cents: 100,
      chargeback_date: '2026-11-01',
      uploaded_at: '2026-11-01T00:00:00.000Z',
      dispute_status: 'Open',
      updated_at: '2026-11-01T00:00:00.000Z',
    });
  }
  let scope = facilities.filter((_, f) => w.device.facilities[f]);
  if (scope.length === 0) scope = [facilities[0]!];
  const facilityIds = new Set(scope.map((f) => f.id));
  return {
    device: { id: DEVICE_IDS[w.device.client]!, facilityIds: [...facilityIds] },
    facilityIds,
    orgIds: new Set(scope.map((f) => f.org)),
    brandIds: new Set(links.filter(([, f]) => facilityIds.has(f)).map(([b]) => b)),
  };
}
