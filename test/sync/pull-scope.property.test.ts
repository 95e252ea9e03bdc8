import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openPullCentral, type PullCentral } from './helpers/pull-fixture';

/**
 * Pull scope as a property (issue 18): for random worlds of two organisations (facilities,
 * brands and where they work, users and grants, orders, log rows and snapshots with and without a
 * facility, deliveries, connections, conflicts, claims), no row a device pulls belongs to a
 * facility, organisation or brand outside its scope, and no credential of a connection it does
 * not send over reaches it. Fixed seed (PULL_SCOPE_SEED to try another); bounded runs.
 */
const SEED = Number(process.env.PULL_SCOPE_SEED ?? 20261125);
const RUNS = Number(process.env.PULL_SCOPE_RUNS ?? 100);
const SECRET = 'secret-do-not-leak';
const DEVICE_IDS = [0, 1, 2].map((i) => `d0000000-0000-4000-8000-00000000000${i}`);
const RETAILER = 'e0000000-0000-4000-8000-000000000001';

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const world = fc.record({
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
type World = typeof world extends fc.Arbitrary<infer T> ? T : never;

const pick = <T>(list: T[], index: number): T => list[index % list.length]!;
const id = (prefix: string, i: number) =>
  `${prefix}000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** Writes the world on a central; returns the device and the ids it must be confined to. */
function build(central: PullCentral, w: World) {
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

describe('pull scope property', () => {
  it('no pulled row belongs to a facility, organisation or brand outside the device scope', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const central = await openPullCentral();
        try {
          const scope = build(central, w);
          const { facilityIds: F, orgIds: O, brandIds: B } = scope;
          const stored = (sql: string, ...values: unknown[]) =>
            central.database.sqlite.prepare(sql).get(...values) as Record<string, unknown>;
          const snapshotInScope = (snapshotId: unknown) => {
            const s = stored(`SELECT * FROM advice_snapshots WHERE id = ?`, snapshotId);
            return s.facility_id === null
              ? B.has(s.brand_id as string)
              : F.has(s.facility_id as string);
          };
          const pulled = central.pullAll(scope.device);
          let orders = 0;
          for (const change of pulled.changes) {
            const row = change.row;
            if (!row) continue;
            const where = `${change.t} ${JSON.stringify(change.k)}`;
            const allowed = ((): boolean => {
              switch (change.t) {
                case 'organizations':
                  return O.has(row.id as string);
                case 'facilities':
                  return F.has(row.id as string);
                case 'brands':
                  return B.has(row.id as string);
                case 'retailers':
                  return true;
                case 'brand_facilities':
                case 'user_facilities':
                case 'user_admin':
                  return F.has(row.facility_id as string);
                case 'users':
                  return (
                    stored(
                      `SELECT count(*) AS n FROM (SELECT facility_id FROM user_facilities WHERE user_id = ?
                         UNION ALL SELECT facility_id FROM user_admin WHERE user_id = ?)
                       WHERE facility_id IN (SELECT value FROM json_each(?))`,
                      row.id,
                      row.id,
                      JSON.stringify([...F]),
                    ).n !== 0
                  );
                case 'orders':
                  orders += 1;
                  return F.has(row.facility_id as string);
                case 'order_items':
                  return F.has(
                    stored(`SELECT facility_id FROM orders WHERE id = ?`, row.order_id)
                      .facility_id as string,
                  );
                case 'transactions':
                  return row.facility_id === null
                    ? B.has(row.brand_id as string)
                    : F.has(row.facility_id as string);
                case 'advice_snapshots':
                  return snapshotInScope(row.id);
                case 'advice_deliveries':
                  return (
                    snapshotInScope(row.snapshot_id) &&
                    (row.organization_id === null ||
                      O.has(row.organization_id as string) ||
                      stored(
                        `SELECT facility_id FROM advice_snapshots WHERE id = ?`,
                        row.snapshot_id,
                      ).facility_id !== null)
                  );
                case 'connections':
                  return (
                    O.has(row.organization_id as string) &&
                    (row.sender === 'workstation' || !JSON.stringify(row).includes(SECRET))
                  );
                case 'sync_conflicts':
                  return row.facility_id === null
                    ? row.client_id === scope.device.id
                    : F.has(row.facility_id as string);
                case 'chargebacks':
                  return B.has(row.brand_id as string);
                default:
                  return false;
              }
            })();
            expect(allowed, `${where} reached a device of ${[...F].join(', ')}`).toBe(true);
          }
          // Not vacuous: every order of the device's facilities came down.
          const expected = stored(
            `SELECT count(*) AS n FROM orders WHERE facility_id IN (SELECT value FROM json_each(?))`,
            JSON.stringify([...F]),
          ).n;
          expect(orders).toBe(expected);
        } finally {
          await central.close();
        }
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: 50_000 },
    );
  }, 60_000);
});
