/**
 * Preview (dry run: nothing stored or sent, no control number consumed, same 400s as a send,
 * changes against the last SUCCESSFUL snapshot of each connection) and the snapshot history
 * (newest first, filters, pagination, tenant isolation, retry rules).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../helpers/clock';
import { baseBundle, id } from '../helpers/fixtures';
import { ok, respond, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import {
  controlCounters,
  facilityUrl,
  FAST_POLICY,
  get,
  http,
  isa13Of,
  post,
  rowCounts,
  setTransport,
  strictParse,
  tmpDir,
} from './support';
import { describeEngines } from '../helpers/engines';

describeEngines('inventory preview-history', (engine) => {
  const [B1, B2, F1, F3] = [id('b', 1), id('b', 2), id('f', 1), id('f', 3)];
  const EDI_URL = facilityUrl(B1, F1); // c1 only (EDI)
  const DIRECT_URL = facilityUrl(B1, F3); // c3 only (DIRECT)

  interface Changes {
    dropped_skus: string[];
    new_zero_skus: string[];
    big_swings: { sku: string; previous: number; next: number }[];
    added_skus: string[];
  }
  interface PreviewConnection {
    connection_id: string;
    kind: string;
    organization_id: string;
    retailer_id: string;
    document: { content_type: string; file_name: string; body: string } | null;
    error: string | null;
    baseline: { snapshot_id: string; created_at: string } | null;
    changes: Changes;
  }

  const sorted = (changes: Changes) => ({
    dropped_skus: [...changes.dropped_skus].sort(),
    new_zero_skus: [...changes.new_zero_skus].sort(),
    big_swings: [...changes.big_swings].sort((a, b) => a.sku.localeCompare(b.sku)),
    added_skus: [...changes.added_skus].sort(),
  });

  const qty = (sku: string, available_quantity: unknown, extra: Record<string, unknown> = {}) => ({
    sku,
    available_quantity,
    ...extra,
  });

  describe('preview', () => {
    let svc: TestService;
    let edi: Receiver;
    let direct: Receiver;
    let admin: string;
    let brand1: string;
    let viewer: string;
    const time = manualClock('2030-03-01T09:00:00Z');

    beforeAll(async () => {
      edi = await startReceiver(ok, 'edi');
      direct = await startReceiver(ok, 'direct');
      const bundle = baseBundle();
      setTransport(bundle, id('c', 1), http(edi.url));
      setTransport(bundle, id('c', 3), http(direct.url));
      svc = await createTestService({
        engine,
        seed: bundle,
        clock: time.clock,
        deliveryPolicy: FAST_POLICY,
      });
      admin = await svc.login('admin@a.test');
      brand1 = await svc.login('brand1@a.test');
      viewer = await svc.login('viewer@a.test');
    });
    afterAll(async () => {
      await svc?.close();
      await edi?.close();
      await direct?.close();
    });
    beforeEach(() => {
      time.advance();
      edi.clear();
      edi.handle(ok);
      direct.clear();
      direct.handle(ok);
    });

    const preview = (bearer: string, url: string, payload: unknown) =>
      post(svc, bearer, `${url}/preview`, payload);
    const connectionsOf = (response: Awaited<ReturnType<typeof preview>>) => {
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as {
        message: string;
        data: { item_count: number; connections: PreviewConnection[] };
      };
      expect(body.message).toBe('Inventory advice preview generated');
      return body.data.connections;
    };

    it('stores nothing, calls nobody, consumes no control number; a later send gets ISA13 1', async () => {
      const before = await rowCounts(svc);
      const counters = await controlCounters(svc);
      const items = [qty('P-1', 10), qty('P-2', 0)];

      for (let i = 0; i < 2; i++) {
        const [connection] = connectionsOf(await preview(admin, EDI_URL, { items }));
        expect(connection).toMatchObject({
          connection_id: id('c', 1),
          kind: 'EDI_846',
          retailer_id: id('r', 1),
          error: null,
          baseline: null,
        });
        expect(connection!.document!.content_type).toBe('application/edi-x12');
        strictParse(connection!.document!.body);
        expect(isa13Of(connection!.document!.body)).toBe('000000001');
      }
      expect(await rowCounts(svc)).toEqual(before);
      expect(await controlCounters(svc)).toEqual(counters);
      expect(edi.received).toHaveLength(0);
      expect(direct.received).toHaveLength(0);

      const sent = await post(svc, admin, EDI_URL, { items });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(isa13Of(edi.received[0]!.body)).toBe('000000001');

      // The preview now shows the next number, still without taking it.
      const [next] = connectionsOf(await preview(admin, EDI_URL, { items }));
      expect(isa13Of(next!.document!.body)).toBe('000000002');
      expect(
        (await controlCounters(svc)).find((c) => c.id === id('c', 1))!.interchange_counter,
      ).toBe(1);
    });

    const bothVariants = ['edi', 'direct'] as const;
    it.each<[string, unknown, readonly ('edi' | 'direct')[]]>([
      ['items missing', {}, bothVariants],
      ['empty list', { items: [] }, bothVariants],
      ['negative quantity', { items: [qty('A', -1)] }, bothVariants],
      ['"5.5"', { items: [qty('A', '5.5')] }, bothVariants],
      ['duplicate SKU', { items: [qty('A', 1), qty('A', 2)] }, bothVariants],
      ['status with stock', { items: [qty('A', 3, { status: 'DISCONTINUED' })] }, bothVariants],
      ['0 without status (direct connection)', { items: [qty('A', 0)] }, ['direct']],
      [
        'past date',
        {
          items: [
            qty('A', 0, {
              status: 'TEMPORARILY_UNAVAILABLE',
              estimated_back_in_stock_date: '2030-02-28',
            }),
          ],
        },
        bothVariants,
      ],
      ['body not an object', '[]', bothVariants],
    ])('answers the same 400 as a send: %s', async (_name, payload, variants) => {
      const before = await rowCounts(svc);
      const counters = await controlCounters(svc);
      for (const variant of variants) {
        const [bearer, url] = variant === 'edi' ? [admin, EDI_URL] : [brand1, DIRECT_URL];
        const dry = await preview(bearer, url, payload);
        const real = await post(svc, bearer, url, payload);
        expect(dry.statusCode, dry.body).toBe(400);
        expect(real.statusCode, real.body).toBe(400);
        expect(dry.json()).toEqual(real.json());
      }
      expect(await rowCounts(svc)).toEqual(before);
      expect(await controlCounters(svc)).toEqual(counters);
      expect(edi.received).toHaveLength(0);
      expect(direct.received).toHaveLength(0);
    });

    it('answers the same 403/404 as a send', async () => {
      const forbidden = await preview(viewer, EDI_URL, { items: [qty('A', 1)] });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual(
        (await post(svc, viewer, EDI_URL, { items: [qty('A', 1)] })).json(),
      );
      const unknown = facilityUrl(B1, '0f000000-0000-4000-8000-0000000000ff');
      const missing = await preview(admin, unknown, { items: [qty('A', 1)] });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({
        message: 'Facility not found',
        error: { code: 'NOT_FOUND' },
      });
    });

    it('without a baseline everything is added and baseline is null', async () => {
      const [connection] = connectionsOf(
        await preview(brand1, DIRECT_URL, {
          items: [qty('N-1', 5), qty('N-2', 0, { status: 'discontinued' })],
        }),
      );
      expect(connection).toMatchObject({
        connection_id: id('c', 3),
        kind: 'DIRECT_API',
        baseline: null,
      });
      expect(sorted(connection!.changes)).toEqual({
        dropped_skus: [],
        new_zero_skus: [],
        big_swings: [],
        added_skus: ['N-1', 'N-2'],
      });
      const feed = JSON.parse(connection!.document!.body) as { items: { status: string | null }[] };
      expect(feed.items.map((i) => i.status)).toEqual([null, 'DISCONTINUED']);
      expect(direct.received).toHaveLength(0);
    });

    it('compares with the last SUCCESSFUL snapshot of the connection', async () => {
      const baseline = [
        qty('A', 100),
        qty('B', 20),
        qty('C', 5),
        qty('G', 100),
        qty('H', 20),
        qty('E', 8),
        qty('Z', 0),
      ];
      const good = await post(svc, admin, EDI_URL, { items: baseline });
      expect(good.statusCode, good.body).toBe(200);
      const baselineId = good.json().data.snapshot_id as string;

      // A later snapshot that did NOT reach the retailer is not a baseline.
      time.advance();
      edi.handle(respond(400, 'rejected'));
      const bad = await post(svc, admin, EDI_URL, { items: [qty('Q', 1)] });
      expect(bad.statusCode, bad.body).toBe(502);
      edi.handle(ok);

      time.advance();
      const next = [
        qty('A', 40), // -60: >= 10 units and >= 50 % -> swing
        qty('B', 0), // had stock, now 0
        qty('C', 12), // +7: >= 50 % but < 10 units -> no swing
        qty('G', 115), // +15: >= 10 units but < 50 % -> no swing
        qty('H', 30), // +10 on 20: exactly 10 units and exactly 50 % -> swing
        qty('Z', 0), // was already 0
        qty('F', 3), // new
        // E is left out: dropped
      ];
      const [connection] = connectionsOf(await preview(admin, EDI_URL, { items: next }));
      expect(connection!.baseline).toEqual({
        snapshot_id: baselineId,
        created_at: expect.any(String),
      });
      expect(sorted(connection!.changes)).toEqual({
        dropped_skus: ['E'],
        new_zero_skus: ['B'],
        big_swings: [
          { sku: 'A', previous: 100, next: 40 },
          { sku: 'H', previous: 20, next: 30 },
        ],
        added_skus: ['F'],
      });

      // Once a newer snapshot succeeds, it becomes the baseline.
      time.advance();
      const newer = await post(svc, admin, EDI_URL, { items: [qty('A', 40)] });
      expect(newer.statusCode).toBe(200);
      time.advance();
      const [after] = connectionsOf(await preview(admin, EDI_URL, { items: [qty('A', 41)] }));
      expect(after!.baseline!.snapshot_id).toBe(newer.json().data.snapshot_id);
      expect(sorted(after!.changes)).toEqual({
        dropped_skus: [],
        new_zero_skus: [],
        big_swings: [],
        added_skus: [],
      });
    });

    it('brand-level preview lists the connections of every organisation', async () => {
      const connections = connectionsOf(
        await post(svc, brand1, '/api/v1/inventory/brand/preview', {
          items: [qty('L-1', 2)],
        }),
      );
      expect(connections.map((c) => c.connection_id).sort()).toEqual([id('c', 1), id('c', 3)]);
      expect(connections.map((c) => c.organization_id).sort()).toEqual([id('o', 1), id('o', 2)]);
      expect(edi.received).toHaveLength(0);
      expect(direct.received).toHaveLength(0);
    });
  });

  describe('history', () => {
    let svc: TestService;
    let edi: Receiver;
    let direct: Receiver;
    let data: ReturnType<typeof tmpDir>;
    const bearer: Record<string, string> = {};
    const snap: Record<string, string> = {};
    const delivery: Record<string, string> = {};
    const time = manualClock('2030-04-01T09:00:00Z');

    interface HistoryItem {
      snapshot_id: string;
      brand_id: string;
      facility_id: string | null;
      item_count: number;
      created_at: string;
      summary: { total: number; succeeded: number; failed: number; pending: number };
      deliveries: {
        delivery_id: string;
        connection_id: string | null;
        kind: string | null;
        status: string;
        error: string | null;
        attempts: number;
        file_name: string | null;
        interchange_control_number: number | null;
      }[];
    }
    interface HistoryPage {
      items: HistoryItem[];
      total_count: number;
      page: number;
      page_size: number;
    }

    const list = async (who: string, query = '') => {
      const response = await get(svc, bearer[who]!, `/api/v1/inventory/snapshots${query}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().message).toBe('Snapshots retrieved successfully');
      return response.json().data as HistoryPage;
    };
    const ids = (page: HistoryPage) =>
      page.items.map((item) => Object.keys(snap).find((k) => snap[k] === item.snapshot_id));

    beforeAll(async () => {
      data = tmpDir('history');
      edi = await startReceiver(ok, 'edi');
      direct = await startReceiver(ok, 'direct');
      const bundle = baseBundle();
      setTransport(bundle, id('c', 1), http(edi.url));
      setTransport(bundle, id('c', 3), http(direct.url));
      bundle.users[0]!.admin.push({ brand_id: B2, facility_id: F1 }); // c2 writes a file
      svc = await createTestService({
        engine,
        seed: bundle,
        clock: time.clock,
        dataDir: data.path,
        deliveryPolicy: FAST_POLICY,
      });
      for (const who of ['admin@a.test', 'brand1@a.test', 'brand2@b.test', 'viewer@a.test']) {
        bearer[who] = await svc.login(who);
      }
      const record = async (
        name: string,
        who: string,
        url: string,
        items: unknown[],
        status: number,
      ) => {
        time.advance();
        const response = await post(svc, bearer[who]!, url, { items });
        expect(response.statusCode, response.body).toBe(status);
        const body = response.json().data as {
          snapshot_id: string;
          results: { delivery_id: string }[];
        };
        snap[name] = body.snapshot_id;
        delivery[name] = body.results[0]!.delivery_id;
      };
      await record('S1', 'admin@a.test', EDI_URL, [qty('H-1', 5), qty('h-2', '7')], 200);
      await record('S2', 'brand1@a.test', DIRECT_URL, [qty('H-1', 6)], 200);
      await record('S3', 'admin@a.test', facilityUrl(B2, F1), [qty('X-1', 1)], 200);
      edi.handle(respond(500, 'boom'));
      await record('S4', 'admin@a.test', EDI_URL, [qty('H-1', 4)], 502);
      edi.handle(ok);
      await record('S5', 'brand1@a.test', '/api/v1/inventory/brand', [qty('H-1', 3)], 200);
      edi.clear();
      direct.clear();
    });
    afterAll(async () => {
      await svc?.close();
      await edi?.close();
      await direct?.close();
      data?.remove();
    });

    it('lists visible snapshots newest first, with summaries and deliveries', async () => {
      const page = await list('brand1@a.test');
      expect(ids(page)).toEqual(['S5', 'S4', 'S2', 'S1']);
      expect(page.total_count).toBe(4);
      expect(page.page).toBe(1);
      const created = page.items.map((i) => i.created_at);
      expect([...created].sort().reverse()).toEqual(created);

      const [s5, s4, , s1] = page.items;
      expect(s5!.facility_id).toBeNull();
      expect(s5!.summary).toEqual({ total: 2, succeeded: 2, failed: 0, pending: 0 });
      expect(s5!.deliveries.map((d) => d.connection_id).sort()).toEqual([id('c', 1), id('c', 3)]);
      expect(s4!.summary).toEqual({ total: 1, succeeded: 0, failed: 1, pending: 0 });
      expect(s4!.deliveries[0]).toMatchObject({
        delivery_id: delivery.S4,
        connection_id: id('c', 1),
        kind: 'EDI_846',
        status: 'FAILURE',
        error: '500: boom',
        attempts: FAST_POLICY.maxAttempts,
        interchange_control_number: 2,
      });
      expect(s1).toMatchObject({ brand_id: B1, facility_id: F1, item_count: 2 });
      expect(s1!.summary).toEqual({ total: 1, succeeded: 1, failed: 0, pending: 0 });
      expect(s1!.deliveries[0]).toMatchObject({
        delivery_id: delivery.S1,
        status: 'SUCCESS',
        error: null,
        attempts: 1,
        file_name: '846_000000001.x12',
        interchange_control_number: 1,
      });
    });

    it('a brand-less user sees the snapshots of its facilities, all brands', async () => {
      expect(ids(await list('admin@a.test'))).toEqual(['S4', 'S3', 'S1']);
      expect(ids(await list('viewer@a.test'))).toEqual(['S4', 'S3', 'S1']);
    });

    it('filters by brand_id and facility_id', async () => {
      expect(ids(await list('admin@a.test', `?brand_id=${B2}`))).toEqual(['S3']);
      expect(ids(await list('admin@a.test', `?brand_id=${B1}&facility_id=${F1}`))).toEqual([
        'S4',
        'S1',
      ]);
      expect(ids(await list('brand1@a.test', `?facility_id=${F3}`))).toEqual(['S2']);
      const none = await list('brand1@a.test', `?brand_id=${B2}`);
      expect(none).toMatchObject({ items: [], total_count: 0 });
    });

    it('paginates', async () => {
      const first = await list('brand1@a.test', '?page=1&page_size=2');
      expect(ids(first)).toEqual(['S5', 'S4']);
      expect(first).toMatchObject({ total_count: 4, page: 1, page_size: 2 });
      expect(ids(await list('brand1@a.test', '?page=2&page_size=2'))).toEqual(['S2', 'S1']);
      const past = await list('brand1@a.test', '?page=3&page_size=2');
      expect(past).toMatchObject({ items: [], total_count: 4 });
      for (const bad of ['?page=0', '?page_size=0', '?page_size=101', '?brand_id=nope']) {
        const response = await get(
          svc,
          bearer['brand1@a.test']!,
          `/api/v1/inventory/snapshots${bad}`,
        );
        expect(response.statusCode, bad).toBe(400);
        expect(response.json().error.code).toBe('INVALID_REQUEST');
      }
    });

    it('one snapshot: its normalised items and deliveries', async () => {
      const response = await get(
        svc,
        bearer['admin@a.test']!,
        `/api/v1/inventory/snapshots/${snap.S1}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json().data;
      expect(data.items).toEqual([
        { sku: 'H-1', available_quantity: 5, status: null, estimated_back_in_stock_date: null },
        { sku: 'h-2', available_quantity: 7, status: null, estimated_back_in_stock_date: null },
      ]);
      expect(data.deliveries).toHaveLength(1);
    });

    it('the stored document has its own content type', async () => {
      const x12 = await get(
        svc,
        bearer['admin@a.test']!,
        `/api/v1/inventory/deliveries/${delivery.S1}/document`,
      );
      expect(x12.statusCode).toBe(200);
      expect(x12.headers['content-type']).toMatch(/^application\/edi-x12/);
      expect(isa13Of(x12.body)).toBe('000000001');
      const json = await get(
        svc,
        bearer['brand1@a.test']!,
        `/api/v1/inventory/deliveries/${delivery.S2}/document`,
      );
      expect(json.statusCode).toBe(200);
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(json.body).items[0].sku).toBe('H-1');
    });

    it("isolates tenants: brand 2 cannot list or open brand 1's snapshots and documents", async () => {
      const page = await list('brand2@b.test');
      expect(page.items.filter((i) => i.brand_id === B1)).toEqual([]);
      expect((await list('brand2@b.test', `?brand_id=${B1}`)).total_count).toBe(0);
      for (const name of ['S1', 'S2', 'S5']) {
        const response = await get(
          svc,
          bearer['brand2@b.test']!,
          `/api/v1/inventory/snapshots/${snap[name]}`,
        );
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          message: 'Snapshot not found',
          error: { code: 'NOT_FOUND' },
        });
        const document = await get(
          svc,
          bearer['brand2@b.test']!,
          `/api/v1/inventory/deliveries/${delivery[name]}/document`,
        );
        expect(document.statusCode).toBe(404);
        expect(document.json()).toEqual({
          message: 'Delivery not found',
          error: { code: 'NOT_FOUND' },
        });
      }
      const retry = await post(
        svc,
        bearer['brand2@b.test']!,
        `/api/v1/inventory/deliveries/${delivery.S4}/retry`,
        {},
      );
      expect(retry.statusCode).toBe(404);
      expect(retry.json()).toEqual({ message: 'Delivery not found', error: { code: 'NOT_FOUND' } });
      // A facility user without brand 1's facility 3 does not see S2 either.
      const hidden = await get(
        svc,
        bearer['admin@a.test']!,
        `/api/v1/inventory/snapshots/${snap.S2}`,
      );
      expect(hidden.statusCode).toBe(404);
      expect(edi.received).toHaveLength(0);
    });

    it('retry: 403 without admin, 400 for a delivery that succeeded', async () => {
      const noAdmin = await post(
        svc,
        bearer['viewer@a.test']!,
        `/api/v1/inventory/deliveries/${delivery.S4}/retry`,
        {},
      );
      expect(noAdmin.statusCode, noAdmin.body).toBe(403);
      expect(noAdmin.json()).toEqual({ message: 'Unauthorized', error: { code: 'UNAUTHORIZED' } });
      const done = await post(
        svc,
        bearer['admin@a.test']!,
        `/api/v1/inventory/deliveries/${delivery.S1}/retry`,
        {},
      );
      expect(done.statusCode, done.body).toBe(400);
      expect(done.json().error.code).toBe('INVALID_REQUEST');
      expect(edi.received).toHaveLength(0);
    });

    it('retry of a failed delivery is refused once a newer snapshot of its scope reached the connection', async () => {
      // S6 (facility 1, like S4) reaches the EDI connection after S4 failed: resending S4's full
      // snapshot would roll the retailer's stock back. (S5, brand level, is another scope.)
      time.advance();
      const s6 = await post(svc, bearer['admin@a.test']!, EDI_URL, { items: [qty('H-1', 2)] });
      expect(s6.statusCode, s6.body).toBe(200);
      edi.clear();
      const response = await post(
        svc,
        bearer['admin@a.test']!,
        `/api/v1/inventory/deliveries/${delivery.S4}/retry`,
        {},
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({
        message: 'A newer snapshot has already been delivered to this connection',
        error: { code: 'INVALID_REQUEST' },
      });
      expect(edi.received).toHaveLength(0);
      const page = await list('admin@a.test', `?brand_id=${B1}&facility_id=${F1}`);
      const s4 = page.items.find((i) => i.snapshot_id === snap.S4)!;
      expect(s4.deliveries[0]).toMatchObject({
        status: 'FAILURE',
        attempts: FAST_POLICY.maxAttempts,
      });
    });
  });
});
