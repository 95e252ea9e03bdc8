/**
 * Endpoints 2 and 3 end to end over loopback HTTP receivers: 200/207/502 and their messages per
 * variant, result shapes, retries, the transaction log, 403/404 rules (nothing sent), the X12 846
 * on the wire (strict re-parse, counts, durable control numbers) and the direct feed.
 *
 * Connections (org 1 = facilities 1 and 2, org 2 = facility 3):
 *   c1 EDI    brand 1 / org 1 / retailer 1   -> brand 1 at facility 1 is EDI-only (846 variant)
 *   c2 DIRECT brand 2 / org 1 / retailer 2
 *   c3 DIRECT brand 1 / org 2 / retailer 3   \ brand 1 at facility 3: two connections, standard
 *   c4 EDI    brand 1 / org 2 / retailer 1   /
 *   c5 EDI    brand 3 / org 1 / retailer 1   \ brand 3 at facility 2: two EDI connections
 *   c6 EDI    brand 3 / org 1 / retailer 2   /
 *   c7 EDI    brand 4 / org 1 / retailer 3, disabled (brand 4 at facility 1)
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baseBundle, id } from '../helpers/fixtures';
import {
  ok,
  hang,
  reset,
  respond,
  sequence,
  startReceiver,
  type Receiver,
} from '../helpers/receivers';
import { createTestService, TEST_PASSWORD, type TestService } from '../helpers/service';
import {
  ediSettings,
  facilityUrl,
  FAST_POLICY,
  get,
  gs06Of,
  http,
  isa13Of,
  post,
  rowCounts,
  splitX12,
  strictParse,
  tmpDir,
  transactionSegments,
  type Bundle,
} from './support';

const [O1, O2] = [id('o', 1), id('o', 2)];
const [F1, F2, F3] = [id('f', 1), id('f', 2), id('f', 3)];
const [B1, B2, B3, B4] = [id('b', 1), id('b', 2), id('b', 3), id('b', 4)];
const [R1, R2, R3] = [id('r', 1), id('r', 2), id('r', 3)];
const C = (n: number) => id('c', n);
const BRAND_URL = '/api/v1/inventory/brand';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Result {
  organization_id?: string | null;
  edi_config_id?: string | null;
  retailer_id: string | null;
  retailer_name: string | null;
  brand_name: string | null;
  organization_name: string | null;
  success: boolean;
  edi_transaction_id?: string | null;
  error: string | null;
  failed_skus: unknown;
  delivery_id: string;
}
interface AdviceBody {
  message: string;
  data: {
    snapshot_id: string;
    results: Result[];
    summary: { total: number; succeeded: number; failed: number };
  };
  error?: { code: string };
}

const items = [
  { sku: 'SKU-1', available_quantity: 12 },
  { sku: 'SKU-2', available_quantity: 0, status: 'DISCONTINUED' },
  { sku: 'SKU-3', available_quantity: 7 },
];

/** The bundle of this file: every connection posts to its own receiver. */
function deliveryBundle(receivers: Record<number, Receiver>): Bundle {
  const bundle = baseBundle();
  bundle.brands.push(
    { brand_id: B3, name: 'Brand Three', external_brand_code: 'B3' },
    { brand_id: B4, name: 'Brand Four', external_brand_code: 'B4' },
  );
  bundle.brand_facilities.push(
    { brand_id: B3, facility_id: F2 },
    { brand_id: B4, facility_id: F1 },
  );
  bundle.users[0]!.admin.push({ brand_id: B3, facility_id: F2 }, { brand_id: B4, facility_id: F1 });
  bundle.users.push({
    email: 'nofac@a.test',
    password: TEST_PASSWORD,
    brand_id: B1,
    facility_ids: [],
    admin: [],
  });
  const edi = (n: number, brand: string, org: string, retailer: string, enabled = true) => ({
    id: C(n),
    organization_id: org,
    brand_id: brand,
    retailer_id: retailer,
    kind: 'EDI_846',
    enabled,
    transport: http(receivers[n]!.url),
    edi: ediSettings(n),
  });
  const direct = (n: number, brand: string, org: string, retailer: string) => ({
    id: C(n),
    organization_id: org,
    brand_id: brand,
    retailer_id: retailer,
    kind: 'DIRECT_API',
    enabled: true,
    transport: http(receivers[n]!.url),
  });
  bundle.connections = [
    edi(1, B1, O1, R1),
    direct(2, B2, O1, R2),
    direct(3, B1, O2, R3),
    edi(4, B1, O2, R1),
    edi(5, B3, O1, R1),
    edi(6, B3, O1, R2),
    edi(7, B4, O1, R3, false),
  ] as unknown as Bundle['connections'];
  return bundle;
}

let svc: TestService;
const rc: Record<number, Receiver> = {};
let data: ReturnType<typeof tmpDir>;
const bearers: Record<string, string> = {};

beforeAll(async () => {
  data = tmpDir('delivery');
  for (const n of [1, 2, 3, 4, 5, 6, 7]) rc[n] = await startReceiver(ok, `c${n}`);
  svc = await createTestService({
    seed: deliveryBundle(rc),
    dataDir: data.path,
    deliveryPolicy: FAST_POLICY,
  });
  for (const email of [
    'admin@a.test',
    'brand1@a.test',
    'brand2@b.test',
    'viewer@a.test',
    'nofac@a.test',
  ]) {
    bearers[email] = await svc.login(email);
  }
});

afterAll(async () => {
  await svc?.close();
  await Promise.all(Object.values(rc).map((r) => r.close()));
  data?.remove();
});

beforeEach(() => {
  for (const receiver of Object.values(rc)) {
    receiver.clear();
    receiver.handle(ok);
  }
});

const send = (email: string, brandId: string, facilityId: string, payload: unknown = { items }) =>
  post(svc, bearers[email]!, facilityUrl(brandId, facilityId), payload);
const sendBrand = (email: string, payload: unknown = { items }) =>
  post(svc, bearers[email]!, BRAND_URL, payload);

function advice(response: LightMyRequestResponse, status: number): AdviceBody {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json() as AdviceBody;
  const { results, summary } = body.data;
  expect(summary.total).toBe(results.length);
  expect(summary.succeeded + summary.failed).toBe(summary.total);
  expect(summary.succeeded).toBe(results.filter((r) => r.success).length);
  for (const result of results) {
    expect(result.failed_skus).toBeNull();
    expect(result.success ? result.error === null : typeof result.error === 'string').toBe(true);
  }
  return body;
}

/** The `846` variant: edi_config_id and edi_transaction_id, no organization_id. */
function expect846Shape(result: Result) {
  expect(result).not.toHaveProperty('organization_id');
  expect(result).toHaveProperty('edi_config_id');
  expect(result).toHaveProperty('edi_transaction_id');
  for (const key of ['retailer_id', 'retailer_name', 'brand_name', 'organization_name']) {
    expect(result).toHaveProperty(key);
  }
  if (result.success) expect(result.edi_transaction_id).toMatch(UUID);
  else expect(result.edi_transaction_id).toBeNull();
}

/** The standard variant: organization_id, no edi_config_id / edi_transaction_id. */
function expectStandardShape(result: Result) {
  expect(result.organization_id).toMatch(UUID);
  expect(result).not.toHaveProperty('edi_config_id');
  expect(result).not.toHaveProperty('edi_transaction_id');
  for (const key of ['retailer_id', 'retailer_name', 'brand_name', 'organization_name']) {
    expect(result).toHaveProperty(key);
  }
}

const byRetailer = (results: Result[], retailerId: string) =>
  results.find((r) => r.retailer_id === retailerId)!;

async function attemptsOf(snapshotId: string, url: string) {
  return svc.ctx.db
    .selectFrom('transactions')
    .selectAll()
    .where('correlation_id', '=', snapshotId)
    .where('request_url', '=', url)
    .orderBy('created_at')
    .execute();
}

describe('facility endpoint outcomes', () => {
  it('200 `846 inventory advice sent successfully` where every connection is EDI', async () => {
    const body = advice(await send('admin@a.test', B1, F1), 200);
    expect(body.message).toBe('846 inventory advice sent successfully');
    expect(body).not.toHaveProperty('error');
    expect(body.data.summary).toEqual({ total: 1, succeeded: 1, failed: 0 });
    const [result] = body.data.results;
    expect846Shape(result!);
    expect(result).toMatchObject({
      edi_config_id: C(1),
      retailer_id: R1,
      retailer_name: 'Retailer One',
      brand_name: 'Brand One',
      organization_name: 'Org One',
      success: true,
      error: null,
      failed_skus: null,
    });
    expect(rc[1]!.received).toHaveLength(1);
  });

  it('200 `Inventory advice sent successfully` with a direct connection among them', async () => {
    const body = advice(await send('brand1@a.test', B1, F3), 200);
    expect(body.message).toBe('Inventory advice sent successfully');
    expect(body.data.summary).toEqual({ total: 2, succeeded: 2, failed: 0 });
    body.data.results.forEach(expectStandardShape);
    expect(byRetailer(body.data.results, R3)).toMatchObject({
      organization_id: O2,
      retailer_name: 'Retailer Three',
      brand_name: 'Brand One',
      organization_name: 'Org Two',
      success: true,
      error: null,
    });
    expect(byRetailer(body.data.results, R1)).toMatchObject({ organization_id: O2, success: true });
    expect(rc[3]!.received).toHaveLength(1);
    expect(rc[4]!.received).toHaveLength(1);
    expect(rc[1]!.received).toHaveLength(0); // c1 is in org 1, not facility 3's organisation
  });

  it('207 `Inventory advice partially completed: 1 succeeded, 1 failed`; 5xx is retried', async () => {
    rc[4]!.handle(respond(500, 'boom'));
    const body = advice(await send('brand1@a.test', B1, F3), 207);
    expect(body.message).toBe('Inventory advice partially completed: 1 succeeded, 1 failed');
    expect(body).not.toHaveProperty('error');
    expect(body.data.summary).toEqual({ total: 2, succeeded: 1, failed: 1 });
    body.data.results.forEach(expectStandardShape);
    expect(byRetailer(body.data.results, R3)).toMatchObject({ success: true, error: null });
    expect(byRetailer(body.data.results, R1)).toMatchObject({ success: false, error: '500: boom' });
    expect(rc[4]!.received).toHaveLength(FAST_POLICY.maxAttempts);
  });

  it('207 `846 inventory advice partially completed: ...` with two EDI connections; 4xx is not retried', async () => {
    rc[6]!.handle(respond(400, 'rejected'));
    const body = advice(await send('admin@a.test', B3, F2), 207);
    expect(body.message).toBe('846 inventory advice partially completed: 1 succeeded, 1 failed');
    body.data.results.forEach(expect846Shape);
    const failed = body.data.results.find((r) => !r.success)!;
    expect(failed).toMatchObject({
      edi_config_id: C(6),
      retailer_id: R2,
      error: '400: rejected',
      edi_transaction_id: null,
    });
    expect(body.data.results.find((r) => r.success)).toMatchObject({ edi_config_id: C(5) });
    expect(rc[6]!.received).toHaveLength(1);
    expect(rc[5]!.received).toHaveLength(1);

    const log = await attemptsOf(body.data.snapshot_id, rc[6]!.url);
    expect(log.map((t) => [t.execution_status, t.response_status, t.error_message])).toEqual([
      ['FAILURE', 400, '400: rejected'],
    ]);
  });

  it('502 `846 inventory advice failed for all configs`, code DELIVERY_FAILED', async () => {
    rc[1]!.handle(respond(500, 'boom'));
    const body = advice(await send('admin@a.test', B1, F1), 502);
    expect(body.message).toBe('846 inventory advice failed for all configs');
    expect(body.error).toEqual({ code: 'DELIVERY_FAILED' });
    expect(body.data.summary).toEqual({ total: 1, succeeded: 0, failed: 1 });
    const [result] = body.data.results;
    expect846Shape(result!);
    expect(result).toMatchObject({
      edi_config_id: C(1),
      retailer_id: R1,
      success: false,
      error: '500: boom',
      edi_transaction_id: null,
    });
  });

  it('502 `Inventory advice failed for all connections` (a hang past the timeout, a reset)', async () => {
    rc[3]!.handle(hang);
    rc[4]!.handle(reset);
    const started = Date.now();
    const body = advice(await send('brand1@a.test', B1, F3), 502);
    expect(Date.now() - started).toBeLessThan(FAST_POLICY.totalBudgetMs + 1000);
    expect(body.message).toBe('Inventory advice failed for all connections');
    expect(body.error).toEqual({ code: 'DELIVERY_FAILED' });
    expect(body.data.summary).toEqual({ total: 2, succeeded: 0, failed: 2 });
    body.data.results.forEach(expectStandardShape);
    expect(byRetailer(body.data.results, R3).error).toMatch(/^ETIMEDOUT: /);
    expect(byRetailer(body.data.results, R1).error).toMatch(/^ECONNRESET: /);
    // Both are transient: tried again up to the policy's attempts.
    expect(rc[3]!.received).toHaveLength(FAST_POLICY.maxAttempts);
    expect(rc[4]!.received).toHaveLength(FAST_POLICY.maxAttempts);
  });

  it('retries a 5xx and succeeds: the same document twice, RETRY then SUCCESS in the log', async () => {
    rc[1]!.handle(sequence(respond(500, 'busy'), respond(200, 'accepted')));
    const body = advice(await send('admin@a.test', B1, F1), 200);
    expect(body.message).toBe('846 inventory advice sent successfully');
    expect(rc[1]!.received).toHaveLength(2);
    expect(rc[1]!.received[1]!.body).toBe(rc[1]!.received[0]!.body);

    const log = await attemptsOf(body.data.snapshot_id, rc[1]!.url);
    expect(log.map((t) => [t.execution_status, t.response_status, t.error_message])).toEqual([
      ['RETRY', 500, '500: busy'],
      ['SUCCESS', 200, null],
    ]);
    for (const row of log) {
      expect(row.request_url).toBe(rc[1]!.url);
      expect(row.request_method).toBe('POST');
      expect(Number.isInteger(row.duration_ms) && row.duration_ms >= 0).toBe(true);
      expect(row.brand_id).toBe(B1);
      expect(row.facility_id).toBe(F1);
      expect(row.retailer_id).toBe(R1);
    }
  });

  it('every attempt of a failed delivery is a log row: RETRY, RETRY, FAILURE', async () => {
    rc[1]!.handle(respond(503, 'down'));
    const body = advice(await send('admin@a.test', B1, F1), 502);
    const log = await attemptsOf(body.data.snapshot_id, rc[1]!.url);
    expect(log.map((t) => [t.execution_status, t.response_status, t.error_message])).toEqual([
      ['RETRY', 503, '503: down'],
      ['RETRY', 503, '503: down'],
      ['FAILURE', 503, '503: down'],
    ]);
  });

  it('a brand whose only connection is disabled: one result with null ids, 502', async () => {
    const body = advice(await send('admin@a.test', B4, F1), 502);
    expect(body.message).toBe('846 inventory advice failed for all configs');
    expect(body.error).toEqual({ code: 'DELIVERY_FAILED' });
    expect(body.data.summary).toEqual({ total: 1, succeeded: 0, failed: 1 });
    const [result] = body.data.results;
    expect(result).toMatchObject({
      edi_config_id: null,
      retailer_id: null,
      success: false,
      edi_transaction_id: null,
      failed_skus: null,
    });
    expect(result!.error).toMatch(
      /^No EDI configuration with 846 inventory advice is enabled for (this|the) brand and facility/,
    );
    expect(rc[7]!.received).toHaveLength(0);
  });
});

describe('brand-level endpoint 3', () => {
  it('reaches the connections of every organisation; each result has organization_id', async () => {
    const body = advice(await sendBrand('brand1@a.test'), 200);
    expect(body.message).toBe('Inventory advice sent successfully');
    expect(body.data.results).toHaveLength(3);
    body.data.results.forEach(expectStandardShape);
    const orgOf = Object.fromEntries(
      body.data.results.map((r) => [`${r.organization_id}/${r.retailer_id}`, r.success]),
    );
    expect(orgOf).toEqual({ [`${O1}/${R1}`]: true, [`${O2}/${R3}`]: true, [`${O2}/${R1}`]: true });
    for (const n of [1, 3, 4]) expect(rc[n]!.received).toHaveLength(1);
    for (const n of [2, 5, 6, 7]) expect(rc[n]!.received).toHaveLength(0);
  });

  it('207 when one organisation fails', async () => {
    rc[1]!.handle(respond(422, 'bad isa'));
    const body = advice(await sendBrand('brand1@a.test'), 207);
    expect(body.message).toBe('Inventory advice partially completed: 2 succeeded, 1 failed');
    expect(body.data.results.find((r) => !r.success)).toMatchObject({
      organization_id: O1,
      error: '422: bad isa',
    });
  });
});

describe('refusals send nothing', () => {
  const unknownFacility = '0f000000-0000-4000-8000-0000000000ff';

  it.each<[string, () => Promise<LightMyRequestResponse>, number, string, string | null]>([
    [
      'no token',
      () => post(svc, 'Bearer nope', facilityUrl(B1, F1), { items }),
      401,
      'UNAUTHORIZED',
      'Authentication failed',
    ],
    [
      'unknown facility',
      () => send('admin@a.test', B1, unknownFacility),
      404,
      'NOT_FOUND',
      'Facility not found',
    ],
    [
      "another tenant's facility",
      () => send('brand2@b.test', B2, F1),
      404,
      'NOT_FOUND',
      'Facility not found',
    ],
    [
      'no connection for the brand there',
      () => send('brand2@b.test', B2, F3),
      404,
      'NOT_FOUND',
      null,
    ],
    [
      'a user without admin grant',
      () => send('viewer@a.test', B1, F1),
      403,
      'UNAUTHORIZED',
      'Unauthorized',
    ],
    [
      'admin of another brand/facility pair',
      () => send('admin@a.test', B2, F1),
      403,
      'UNAUTHORIZED',
      'Unauthorized',
    ],
    [
      "another brand's id",
      () => send('brand2@b.test', B1, F3),
      403,
      'UNAUTHORIZED',
      'Unauthorized',
    ],
    [
      'brand-level, brand-less user',
      () => sendBrand('admin@a.test'),
      403,
      'UNAUTHORIZED',
      'Unauthorized',
    ],
    [
      'brand-level, no facilities',
      () => sendBrand('nofac@a.test'),
      404,
      'NOT_FOUND',
      'No facilities associated with this brand',
    ],
  ])('%s', async (_name, request, status, code, message) => {
    const before = await rowCounts(svc);
    const response = await request();
    expect(response.statusCode, response.body).toBe(status);
    const body = response.json() as { message: string; error: { code: string } };
    expect(Object.keys(body).sort()).toEqual(['error', 'message']);
    expect(body.error).toEqual({ code });
    if (message) expect(body.message).toBe(message);
    else expect(body.message).toMatch(/\S/);
    expect(await rowCounts(svc)).toEqual(before);
    for (const receiver of Object.values(rc)) expect(receiver.received).toHaveLength(0);
  });
});

describe('what goes over the wire', () => {
  it('the direct feed: JSON items, brand, facility, Idempotency-Key = idempotency_key', async () => {
    const body = advice(
      await send('brand1@a.test', B1, F3, {
        items: [
          {
            sku: 'D-1',
            available_quantity: 0,
            status: 'temporarily_unavailable',
            estimated_back_in_stock_date: '2099-01-31',
          },
          { sku: 'D-2', available_quantity: '40' },
        ],
      }),
      200,
    );
    const [request] = rc[3]!.received;
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toMatch(/^application\/json/);
    const feed = JSON.parse(request!.body) as Record<string, unknown> & {
      items: unknown[];
      brand: Record<string, unknown>;
      facility: Record<string, unknown>;
    };
    expect(feed.items).toEqual([
      {
        sku: 'D-1',
        available_quantity: 0,
        status: 'TEMPORARILY_UNAVAILABLE',
        estimated_back_in_stock_date: '2099-01-31',
      },
      { sku: 'D-2', available_quantity: 40, status: null, estimated_back_in_stock_date: null },
    ]);
    expect(feed.brand).toMatchObject({ brand_id: B1, name: 'Brand One' });
    expect(feed.facility).toMatchObject({
      id: F3,
      name: 'Charlie DC',
      external_facility_code: 'CHL',
    });
    expect(typeof feed.idempotency_key).toBe('string');
    expect(request!.headers['idempotency-key']).toBe(feed.idempotency_key);

    // The stored document is what went out.
    const result = byRetailer(body.data.results, R3);
    const stored = await get(
      svc,
      bearers['brand1@a.test']!,
      `/api/v1/inventory/deliveries/${result.delivery_id}/document`,
    );
    expect(stored.statusCode).toBe(200);
    expect(stored.body).toBe(request!.body);
    // Stored without the items, which the snapshot holds: body + items_json + tail.
    const split = await svc.ctx.db
      .selectFrom('advice_documents as x')
      .innerJoin('advice_deliveries as d', 'd.id', 'x.delivery_id')
      .innerJoin('advice_snapshots as s', 's.id', 'd.snapshot_id')
      .select(['x.body', 'x.tail', 's.items_json'])
      .where('x.delivery_id', '=', result.delivery_id)
      .executeTakeFirstOrThrow();
    expect(split.tail).not.toBeNull();
    expect(split.body.length).toBeLessThan(request!.body.length - split.items_json.length + 1);
    expect(split.body + split.items_json + split.tail).toBe(request!.body);

    // The 846 to c4 in the same advice carries neither status nor date.
    const [x12] = rc[4]!.received;
    expect(x12!.body).not.toMatch(/TEMPORARILY|DISCONTINUED|2099-01-31|20990131/);
  });

  it('a new advice gets a new idempotency key', async () => {
    advice(await send('brand1@a.test', B1, F3), 200);
    advice(await send('brand1@a.test', B1, F3), 200);
    const keys = rc[3]!.received.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });
});

describe('the X12 846 over HTTP (fresh service: durable control numbers start at 1)', () => {
  let fresh: TestService;
  let receiver: Receiver;
  let bearer: string;

  beforeAll(async () => {
    receiver = await startReceiver(ok, 'x12');
    const bundle = baseBundle();
    bundle.connections[0]!.transport = http(receiver.url) as never;
    fresh = await createTestService({ seed: bundle, deliveryPolicy: FAST_POLICY });
    bearer = await fresh.login('admin@a.test');
  });
  afterAll(async () => {
    await fresh?.close();
    await receiver?.close();
  });

  const sendX12 = (payload: unknown) => post(fresh, bearer, facilityUrl(B1, F1), payload);

  it('is application/edi-x12, strictly valid, with right counts and totals', async () => {
    const first = [
      { sku: 'A-1', available_quantity: 120 },
      { sku: 'A-2', available_quantity: 0 },
      { sku: 'A-3', available_quantity: '33' },
      { sku: 'A-4', available_quantity: 4.9 },
    ];
    const second = [{ sku: 'B-1', available_quantity: 5 }];
    const r1 = await sendX12({ items: first });
    const r2 = await sendX12({ items: second });
    expect(r1.statusCode, r1.body).toBe(200);
    expect(r2.statusCode, r2.body).toBe(200);
    expect(receiver.received).toHaveLength(2);

    const expectations = [
      { lines: 4, total: 157, isa13: '000000001', gs06: '1' },
      { lines: 1, total: 5, isa13: '000000002', gs06: '2' },
    ];
    receiver.received.forEach((request, i) => {
      const want = expectations[i]!;
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/edi-x12');
      const text = request.body;
      const interchange = strictParse(text); // throws on bad ISA width, SE01, GE, IEA
      expect(interchange.functionalGroups).toHaveLength(1);
      expect(interchange.functionalGroups[0]!.transactions).toHaveLength(1);

      const segments = splitX12(text);
      expect(text.indexOf(text[105]!)).toBe(105); // ISA is 106 characters with its terminator
      const tag = (t: string) => segments.filter((s) => s[0] === t);
      const st = segments.findIndex((s) => s[0] === 'ST');
      const se = segments.findIndex((s) => s[0] === 'SE');
      expect(segments[st]!.slice(0, 2)).toEqual(['ST', '846']);
      expect(Number(segments[se]![1])).toBe(se - st + 1);
      expect(segments[se]![2]).toBe(segments[st]![2]);
      expect(tag('GS')[0]![1]).toBe('IB');
      expect(tag('GE')[0]).toEqual(['GE', '1', want.gs06]);
      expect(tag('IEA')[0]).toEqual(['IEA', '1', want.isa13]);
      expect(isa13Of(text)).toBe(want.isa13);
      expect(gs06Of(text)).toBe(want.gs06);
      expect(segments[0]![6]).toBe('SENDER1        ');
      expect(segments[0]![8]).toBe('RECEIVER1      ');
      expect(segments[0]![15]).toBe('T');

      const lins = tag('LIN');
      const qtys = tag('QTY');
      const ctt = tag('CTT')[0]!;
      expect(lins).toHaveLength(want.lines);
      expect(qtys).toHaveLength(want.lines);
      expect(Number(ctt[1])).toBe(lins.length);
      expect(Number(ctt[2])).toBe(qtys.reduce((sum, q) => sum + Number(q[2]), 0));
      expect(Number(ctt[2])).toBe(want.total);
      // node-x12's view agrees (it drops ISA13's leading zeros)
      expect(interchange.header.valueOf(13)).toBe(String(Number(want.isa13)));
      const parsedCtt = transactionSegments(text).find((s) => s.tag === 'CTT')!;
      expect(parsedCtt.valueOf(1)).toBe(String(want.lines));
    });
    expect(
      splitX12(receiver.received[0]!.body)
        .filter((s) => s[0] === 'LIN')
        .map((s) => s[3]),
    ).toEqual(['A-1', 'A-2', 'A-3', 'A-4']);
  });

  it('concurrent sends to one connection get distinct, consecutive control numbers', async () => {
    receiver.clear();
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        sendX12({ items: [{ sku: `C-${i}`, available_quantity: i + 1 }] }),
      ),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const isa13s = receiver.received.map((r) => Number(isa13Of(r.body))).sort((a, b) => a - b);
    expect(isa13s).toEqual([3, 4, 5, 6, 7]);
    const gs06s = receiver.received.map((r) => Number(gs06Of(r.body))).sort((a, b) => a - b);
    expect(gs06s).toEqual([3, 4, 5, 6, 7]);
  });

  it('a failed send still consumed its control number (never reused for another document)', async () => {
    receiver.clear();
    receiver.handle(respond(400, 'no'));
    const failed = await sendX12({ items: [{ sku: 'F-1', available_quantity: 1 }] });
    expect(failed.statusCode).toBe(502);
    receiver.handle(ok);
    const next = await sendX12({ items: [{ sku: 'F-2', available_quantity: 1 }] });
    expect(next.statusCode).toBe(200);
    expect(receiver.received.map((r) => isa13Of(r.body))).toEqual(['000000008', '000000009']);
  });
});

describe('retry while the first send is still in flight', () => {
  let fresh: TestService;
  let receiver: Receiver;
  let bearer: string;

  beforeAll(async () => {
    // 1st request (the send) hangs, 2nd (the retry) is accepted, later ones (the send's own
    // retries) hang again: the send fails, the retry succeeds.
    receiver = await startReceiver(sequence(hang, ok, hang), 'race');
    const bundle = baseBundle();
    bundle.connections[0]!.transport = http(receiver.url) as never;
    fresh = await createTestService({ seed: bundle, deliveryPolicy: FAST_POLICY });
    bearer = await fresh.login('admin@a.test');
  });
  afterAll(async () => {
    await fresh?.close();
    await receiver?.close();
  });

  it('a delivery the partner accepted is never left recorded as FAILURE', async () => {
    const sending = post(fresh, bearer, facilityUrl(B1, F1), {
      items: [{ sku: 'R-1', available_quantity: 1 }],
    });
    await receiver.waitFor(1);
    const row = await fresh.ctx.db
      .selectFrom('advice_deliveries')
      .select(['id', 'status'])
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('PENDING');

    const retry = await post(fresh, bearer, `/api/v1/inventory/deliveries/${row.id}/retry`, {});
    await sending;
    const final = await fresh.ctx.db
      .selectFrom('advice_deliveries')
      .select(['status', 'error'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    const accepted = await fresh.ctx.db
      .selectFrom('transactions')
      .select('transaction_id')
      .where('execution_status', '=', 'SUCCESS')
      .where('request_url', '=', receiver.url)
      .execute();

    // A retry of a delivery this process is still sending is refused, so the same interchange
    // cannot go out twice at once; the send's own retry then meets the partner's "ok".
    expect(retry.statusCode, retry.body).toBe(400);
    expect(retry.json()).toEqual({
      message: 'This delivery is being sent',
      error: { code: 'INVALID_REQUEST' },
    });
    expect(receiver.received).toHaveLength(2);
    expect(accepted).toHaveLength(1);
    expect(final).toEqual({ status: 'SUCCESS', error: null });
  });
});

describe('retry of a failed delivery', () => {
  let svc: TestService;
  let receiver: Receiver;
  let bearer: string;

  beforeAll(async () => {
    receiver = await startReceiver(respond(400, 'not today'), 'retry');
    const bundle = baseBundle();
    bundle.connections[0]!.transport = http(receiver.url) as never;
    svc = await createTestService({ seed: bundle, deliveryPolicy: FAST_POLICY });
    bearer = await svc.login('admin@a.test');
  });
  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
  });

  it('sends the very same stored document again and records the success', async () => {
    const failed = await post(svc, bearer, facilityUrl(B1, F1), {
      items: [{ sku: 'RT-1', available_quantity: 3 }],
    });
    expect(failed.statusCode, failed.body).toBe(502);
    const deliveryId = failed.json().data.results[0].delivery_id as string;
    receiver.handle(ok);
    const retry = await post(svc, bearer, `/api/v1/inventory/deliveries/${deliveryId}/retry`, {});
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual({
      message: 'Delivery sent successfully',
      data: { delivery_id: deliveryId, success: true, error: null },
    });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    const row = await svc.ctx.db
      .selectFrom('advice_deliveries')
      .select(['status', 'error', 'attempts'])
      .where('id', '=', deliveryId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'SUCCESS', error: null, attempts: 2 });
  });
});
