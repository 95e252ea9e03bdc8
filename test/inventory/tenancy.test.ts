/**
 * Who sees and retries which delivery (issue 6, Security 2), and which snapshot a preview or a
 * retry compares with (Security 3): only the same scope, never another facility's stock.
 *
 * Brand 1 has c1 (EDI, org 1: facilities 1 and 2) and c3 (DIRECT, org 2: facility 3). A
 * brand-level snapshot reaches both organisations; each user sees only the deliveries into the
 * organisations of the facilities it sees, and retries only where it holds an admin grant.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { snapshotDetailSchema, snapshotPageSchema } from '../../src/shared/inventory';
import { manualClock } from '../helpers/clock';
import { baseBundle, id } from '../helpers/fixtures';
import { ok, respond, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, TEST_PASSWORD, type TestService } from '../helpers/service';
import { facilityUrl, FAST_POLICY, get, http, post, setTransport } from './support';
import { describeEngines } from '../helpers/engines';

describeEngines('inventory tenancy', (engine) => {
  const [O1, O2] = [id('o', 1), id('o', 2)];
  const [F1, F2, F3] = [id('f', 1), id('f', 2), id('f', 3)];
  const B1 = id('b', 1);
  const BRAND_URL = '/api/v1/inventory/brand';
  const NOT_FOUND = (message: string) => ({ message, error: { code: 'NOT_FOUND' } });

  const brandUser = (
    email: string,
    facilityIds: string[],
    adminAt: string[],
  ): ReturnType<typeof baseBundle>['users'][number] => ({
    email,
    password: TEST_PASSWORD,
    brand_id: B1,
    facility_ids: facilityIds,
    admin: adminAt.map((facility_id) => ({ brand_id: B1, facility_id })),
  });

  describe('deliveries of a brand-level snapshot, per organisation', () => {
    let svc: TestService;
    let edi: Receiver;
    let direct: Receiver;
    const bearer: Record<string, string> = {};
    let snapshotId: string;
    let toOrg1: string; // c1's delivery
    let toOrg2: string; // c3's delivery
    let facilitySnapshot: string; // facility 1, c1
    let facilityDelivery: string;
    const time = manualClock('2030-05-01T09:00:00Z');

    beforeAll(async () => {
      edi = await startReceiver(respond(503, 'down'), 'edi');
      direct = await startReceiver(respond(503, 'down'), 'direct');
      const bundle = baseBundle();
      setTransport(bundle, id('c', 1), http(edi.url));
      setTransport(bundle, id('c', 3), http(direct.url));
      bundle.users.push(
        // Admin in organisation 1 only: must not see or touch organisation 2's delivery.
        brandUser('org1@b1.test', [F1], [F1]),
        // Admin in organisation 2 only.
        brandUser('org2@b1.test', [F3], [F3]),
        // Sees both organisations, admin only in organisation 2.
        brandUser('split@b1.test', [F1, F3], [F3]),
        // A brand user with no facilities, and one whose only facility the brand does not use.
        brandUser('nofac@b1.test', [], []),
        brandUser('f2@b1.test', [F2], []),
      );
      svc = await createTestService({
        engine,
        seed: bundle,
        clock: time.clock,
        deliveryPolicy: FAST_POLICY,
      });
      for (const user of bundle.users) bearer[user.email] = await svc.login(user.email);

      time.advance();
      const facility = await post(svc, bearer['brand1@a.test']!, facilityUrl(B1, F1), {
        items: [{ sku: 'F-1', available_quantity: 4 }],
      });
      expect(facility.statusCode, facility.body).toBe(502);
      facilitySnapshot = facility.json().data.snapshot_id;
      facilityDelivery = facility.json().data.results[0].delivery_id;

      time.advance();
      const sent = await post(svc, bearer['brand1@a.test']!, BRAND_URL, {
        items: [{ sku: 'B-1', available_quantity: 9 }],
      });
      expect(sent.statusCode, sent.body).toBe(502);
      const results = sent.json().data.results as {
        organization_id: string;
        delivery_id: string;
      }[];
      snapshotId = sent.json().data.snapshot_id;
      toOrg1 = results.find((r) => r.organization_id === O1)!.delivery_id;
      toOrg2 = results.find((r) => r.organization_id === O2)!.delivery_id;
    });
    afterAll(async () => {
      await svc?.close();
      await edi?.close();
      await direct?.close();
    });
    beforeEach(() => {
      edi.clear();
      direct.clear();
      edi.handle(ok);
      direct.handle(ok);
    });

    const list = async (email: string) => {
      const response = await get(svc, bearer[email]!, '/api/v1/inventory/snapshots');
      expect(response.statusCode, response.body).toBe(200);
      return snapshotPageSchema.parse(response.json().data);
    };
    const deliveriesListed = async (email: string) =>
      (await list(email)).items
        .filter((item) => item.snapshot_id === snapshotId)
        .flatMap((item) => item.deliveries.map((d) => d.delivery_id));
    const detail = (email: string, snapshot = snapshotId) =>
      get(svc, bearer[email]!, `/api/v1/inventory/snapshots/${snapshot}`);
    const documentOf = (email: string, deliveryId: string) =>
      get(svc, bearer[email]!, `/api/v1/inventory/deliveries/${deliveryId}/document`);
    const retry = (email: string, deliveryId: string) =>
      post(svc, bearer[email]!, `/api/v1/inventory/deliveries/${deliveryId}/retry`, {});

    it('list and detail show only the deliveries into organisations of the user', async () => {
      expect(await deliveriesListed('brand1@a.test')).toEqual(
        expect.arrayContaining([toOrg1, toOrg2]),
      );
      expect(await deliveriesListed('org1@b1.test')).toEqual([toOrg1]);
      expect(await deliveriesListed('org2@b1.test')).toEqual([toOrg2]);

      const org1 = await detail('org1@b1.test');
      expect(org1.statusCode, org1.body).toBe(200);
      const data = snapshotDetailSchema.parse(org1.json().data);
      expect(data.deliveries.map((d) => d.delivery_id)).toEqual([toOrg1]);
      expect(data.deliveries.map((d) => d.organization_id)).toEqual([O1]);
      // The summary counts what the user sees, not the other organisation's row.
      expect(data.summary.total).toBe(1);
    });

    it("another organisation's delivery: document and retry answer 404, nothing sent", async () => {
      for (const [email, hidden] of [
        ['org1@b1.test', toOrg2],
        ['org2@b1.test', toOrg1],
      ] as const) {
        const document = await documentOf(email, hidden);
        expect(document.statusCode, email).toBe(404);
        expect(document.json()).toEqual(NOT_FOUND('Delivery not found'));
        const again = await retry(email, hidden);
        expect(again.statusCode, email).toBe(404);
        expect(again.json()).toEqual(NOT_FOUND('Delivery not found'));
      }
      // A facility snapshot of organisation 1 is invisible from organisation 2 altogether.
      expect((await detail('org2@b1.test', facilitySnapshot)).statusCode).toBe(404);
      expect((await documentOf('org2@b1.test', facilityDelivery)).statusCode).toBe(404);
      expect((await retry('org2@b1.test', facilityDelivery)).statusCode).toBe(404);
      expect(edi.received).toHaveLength(0);
      expect(direct.received).toHaveLength(0);
    });

    it('its own organisation: document 200', async () => {
      const document = await documentOf('org1@b1.test', toOrg1);
      expect(document.statusCode, document.body).toBe(200);
      expect(document.headers['content-type']).toMatch(/^application\/edi-x12/);
    });

    it('retry needs an admin grant in the delivery’s organisation', async () => {
      // split@ sees organisation 1 (facility 1) but is admin only in organisation 2.
      expect(await deliveriesListed('split@b1.test')).toEqual(
        expect.arrayContaining([toOrg1, toOrg2]),
      );
      const refused = await retry('split@b1.test', toOrg1);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toEqual({ message: 'Unauthorized', error: { code: 'UNAUTHORIZED' } });
      expect(edi.received).toHaveLength(0);

      const allowed = await retry('split@b1.test', toOrg2);
      expect(allowed.statusCode, allowed.body).toBe(200);
      expect(allowed.json().data).toEqual({ delivery_id: toOrg2, success: true, error: null });
      expect(direct.received).toHaveLength(1);

      const own = await retry('org1@b1.test', toOrg1);
      expect(own.statusCode, own.body).toBe(200);
      expect(edi.received).toHaveLength(1);
    });

    it('a brand user without facilities of the brand sees no brand-level snapshot', async () => {
      for (const email of ['nofac@b1.test', 'f2@b1.test']) {
        expect(await list(email), email).toMatchObject({ items: [], total_count: 0 });
        const hidden = await detail(email);
        expect(hidden.statusCode, email).toBe(404);
        expect(hidden.json()).toEqual(NOT_FOUND('Snapshot not found'));
        expect((await documentOf(email, toOrg1)).statusCode, email).toBe(404);
        expect((await retry(email, toOrg1)).statusCode, email).toBe(404);
      }
    });
  });

  describe('preview and retry compare within one scope (two facilities share a connection)', () => {
    let svc: TestService;
    let partner: Receiver;
    let admin: string;
    let brand: string;
    const time = manualClock('2030-06-01T09:00:00Z');
    // Columbus (facility 1) and Reno (facility 2) are both in organisation 1, so c1 serves both.
    const COLUMBUS = facilityUrl(B1, F1);
    const RENO = facilityUrl(B1, F2);

    interface PreviewConnection {
      connection_id: string;
      baseline: { snapshot_id: string } | null;
      changes: {
        dropped_skus: string[];
        new_zero_skus: string[];
        big_swings: { sku: string }[];
        added_skus: string[];
      };
    }

    beforeAll(async () => {
      partner = await startReceiver(ok, 'c1');
      const bundle = baseBundle();
      setTransport(bundle, id('c', 1), http(partner.url));
      bundle.brand_facilities.push({ brand_id: B1, facility_id: F2 });
      bundle.users[0]!.admin.push({ brand_id: B1, facility_id: F2 }); // admin@a.test
      bundle.users[1]!.admin.push({ brand_id: B1, facility_id: F2 }); // brand1@a.test
      svc = await createTestService({
        engine,
        seed: bundle,
        clock: time.clock,
        deliveryPolicy: FAST_POLICY,
      });
      admin = await svc.login('admin@a.test');
      brand = await svc.login('brand1@a.test');
    });
    afterAll(async () => {
      await svc?.close();
      await partner?.close();
    });
    beforeEach(() => {
      time.advance();
      partner.handle(ok);
    });

    const send = async (url: string, items: unknown[], status = 200) => {
      const response = await post(svc, admin, url, { items });
      expect(response.statusCode, response.body).toBe(status);
      return response.json().data as { snapshot_id: string; results: { delivery_id: string }[] };
    };
    const previewC1 = async (bearer: string, url: string, items: unknown[]) => {
      const response = await post(svc, bearer, `${url}/preview`, { items });
      expect(response.statusCode, response.body).toBe(200);
      const connections = response.json().data.connections as PreviewConnection[];
      return connections.find((c) => c.connection_id === id('c', 1))!;
    };

    it("a facility's preview never compares with (or reveals) another facility's stock", async () => {
      const columbus = await send(COLUMBUS, [
        { sku: 'COL-1', available_quantity: 100 },
        { sku: 'COL-2', available_quantity: 50 },
      ]);

      const reno = await previewC1(admin, RENO, [{ sku: 'RNO-1', available_quantity: 5 }]);
      expect(reno.baseline).toBeNull();
      expect(reno.changes).toEqual({
        dropped_skus: [],
        new_zero_skus: [],
        big_swings: [],
        added_skus: ['RNO-1'],
      });

      time.advance();
      await send(RENO, [{ sku: 'RNO-1', available_quantity: 5 }]);
      // Columbus still compares with its own last snapshot, not with Reno's newer one.
      const again = await previewC1(admin, COLUMBUS, [
        { sku: 'COL-1', available_quantity: 100 },
        { sku: 'COL-2', available_quantity: 50 },
      ]);
      expect(again.baseline?.snapshot_id).toBe(columbus.snapshot_id);
      expect(again.changes).toEqual({
        dropped_skus: [],
        new_zero_skus: [],
        big_swings: [],
        added_skus: [],
      });

      // The brand level is a scope of its own: no brand-level snapshot was accepted yet.
      const brandLevel = await previewC1(brand, BRAND_URL, [
        { sku: 'COL-1', available_quantity: 1 },
      ]);
      expect(brandLevel.baseline).toBeNull();
      expect(brandLevel.changes.dropped_skus).toEqual([]);
    });

    it('retry is refused only when a newer snapshot of the same facility was accepted', async () => {
      partner.handle(respond(500, 'boom'));
      const failed = await send(COLUMBUS, [{ sku: 'COL-1', available_quantity: 7 }], 502);
      const deliveryId = failed.results[0]!.delivery_id;

      // Reno's newer snapshot reaches the same connection: it does not replace Columbus's stock.
      time.advance();
      partner.handle(ok);
      await send(RENO, [{ sku: 'RNO-1', available_quantity: 6 }]);
      partner.clear();
      const retried = await post(
        svc,
        admin,
        `/api/v1/inventory/deliveries/${deliveryId}/retry`,
        {},
      );
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json().data.success).toBe(true);
      expect(partner.received).toHaveLength(1);

      // A newer Columbus snapshot accepted: an older failed Columbus delivery is not resent.
      partner.handle(respond(500, 'boom'));
      time.advance();
      const older = await send(COLUMBUS, [{ sku: 'COL-1', available_quantity: 8 }], 502);
      partner.handle(ok);
      time.advance();
      await send(COLUMBUS, [{ sku: 'COL-1', available_quantity: 9 }]);
      partner.clear();
      const refused = await post(
        svc,
        admin,
        `/api/v1/inventory/deliveries/${older.results[0]!.delivery_id}/retry`,
        {},
      );
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().message).toBe(
        'A newer snapshot has already been delivered to this connection',
      );
      expect(partner.received).toHaveLength(0);
    });
  });
});
