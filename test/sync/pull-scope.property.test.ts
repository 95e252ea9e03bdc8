import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openPullCentral } from './helpers/pull-fixture';
import { build, SECRET, world } from './helpers/pull-scope-world';

/**
 * Pull scope as a property (issue 18): for random worlds of two organisations (facilities,
 * brands and where they work, users and grants, orders, log rows and snapshots with and without a
 * facility, deliveries, connections, conflicts, claims), no row a device pulls belongs to a
 * facility, organisation or brand outside its scope, and no credential of a connection it does
 * not send over reaches it. Fixed seed (PULL_SCOPE_SEED to try another); bounded runs.
 */
const SEED = Number(process.env.PULL_SCOPE_SEED ?? 20261125);
const RUNS = Number(process.env.PULL_SCOPE_RUNS ?? 100);
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
