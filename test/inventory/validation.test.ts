/**
 * Endpoint 2 validation through the API: the two 400 shapes (field problems and row problems),
 * the EDI variant's single-string details, accepted coercions, and "nothing stored or sent".
 *
 * Brand 1 at facility 1 reaches only c1 (EDI, the `846` variant); brand 1 at facility 3 reaches
 * c3 (DIRECT, http receiver) and brand 2 at facility 1 reaches c2 (DIRECT, file in the data dir).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baseBundle, id } from '../helpers/fixtures';
import { startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import {
  controlCounters,
  expect400,
  expectFieldProblems,
  expectRowProblems,
  facilityUrl,
  FAST_POLICY,
  http,
  post,
  rowCounts,
  setTransport,
  tmpDir,
  x12Quantities,
} from './support';

// The workstation's local day decides what "past" means; pick a zone whose day differs from UTC's.
process.env.TZ = 'Pacific/Auckland';
/** 2030-06-15 20:00 UTC is 2030-06-16 08:00 in Auckland (NZST, UTC+12). */
const NOW = new Date('2030-06-15T20:00:00Z');
const TODAY = '2030-06-16';
const YESTERDAY = '2030-06-15';

const B1 = id('b', 1);
const B2 = id('b', 2);
const F1 = id('f', 1);
const F3 = id('f', 3);
const EDI_URL = facilityUrl(B1, F1); // brand 1 at facility 1: only c1 (EDI)
const DIRECT_URL = facilityUrl(B1, F3); // brand 1 at facility 3: c3 (DIRECT)
const DIRECT_FILE_URL = facilityUrl(B2, F1); // brand 2 at facility 1: c2 (DIRECT, file)

let svc: TestService;
let ediReceiver: Receiver;
let directReceiver: Receiver;
let data: ReturnType<typeof tmpDir>;
let admin: string;
let brand1: string;

const c2Dir = () => join(data.path, 'outbox/r2');
const c2Files = () => (existsSync(c2Dir()) ? readdirSync(c2Dir()).sort() : []);

beforeAll(async () => {
  data = tmpDir('validation');
  ediReceiver = await startReceiver(undefined, 'edi');
  directReceiver = await startReceiver(undefined, 'direct');
  const bundle = baseBundle();
  setTransport(bundle, id('c', 1), http(ediReceiver.url));
  setTransport(bundle, id('c', 3), http(directReceiver.url));
  // admin@a.test may also send for brand 2 at facility 1 (c2, DIRECT, file transport).
  bundle.users[0]!.admin.push({ brand_id: B2, facility_id: F1 });
  svc = await createTestService({
    seed: bundle,
    clock: { now: () => new Date(NOW) },
    dataDir: data.path,
    deliveryPolicy: FAST_POLICY,
  });
  admin = await svc.login('admin@a.test');
  brand1 = await svc.login('brand1@a.test');
  // The zone really applies (otherwise the "local day" tests below would prove nothing).
  expect(NOW.getDate()).toBe(16);
});

afterAll(async () => {
  await svc?.close();
  await ediReceiver?.close();
  await directReceiver?.close();
  data?.remove();
});

beforeEach(() => {
  ediReceiver.clear();
  directReceiver.clear();
});

const item = (sku: string, available_quantity: unknown, extra: Record<string, unknown> = {}) => ({
  sku,
  available_quantity,
  ...extra,
});

/** Sends and checks that a rejection stored nothing, sent nothing, consumed no control number. */
async function rejected(bearer: string, url: string, payload: unknown) {
  const before = await rowCounts(svc);
  const counters = await controlCounters(svc);
  const filesBefore = c2Files();
  const response = await post(svc, bearer, url, payload);
  expect(response.statusCode, response.body).toBe(400);
  expect(await rowCounts(svc)).toEqual(before);
  expect(await controlCounters(svc)).toEqual(counters);
  expect(ediReceiver.received).toHaveLength(0);
  expect(directReceiver.received).toHaveLength(0);
  expect(c2Files()).toEqual(filesBefore);
  return response;
}

describe('field problems: 400 Validation failed, details [{loc, msg, type}]', () => {
  const thousandAndOne = Array.from({ length: 1001 }, (_, i) => item(`SKU-${i}`, 1));

  it.each<[string, unknown, (string | number)[]]>([
    ['items missing', {}, ['items']],
    ['items null', { items: null }, ['items']],
    ['items not a list (object)', { items: { sku: 'A', available_quantity: 1 } }, ['items']],
    ['items not a list (string)', { items: 'A,1' }, ['items']],
    ['empty list', { items: [] }, ['items']],
    ['1001 items', { items: thousandAndOne }, ['items']],
    ['negative quantity', { items: [item('A', -1)] }, ['items', 0, 'available_quantity']],
    ['quantity "abc"', { items: [item('A', 'abc')] }, ['items', 0, 'available_quantity']],
    ['quantity "5.5"', { items: [item('A', '5.5')] }, ['items', 0, 'available_quantity']],
    ['quantity "-3"', { items: [item('A', '-3')] }, ['items', 0, 'available_quantity']],
    ['quantity true', { items: [item('A', true)] }, ['items', 0, 'available_quantity']],
    ['quantity null', { items: [item('A', null)] }, ['items', 0, 'available_quantity']],
    ['quantity missing', { items: [{ sku: 'A' }] }, ['items', 0, 'available_quantity']],
    ['sku missing', { items: [{ available_quantity: 1 }] }, ['items', 0, 'sku']],
    ['unknown status', { items: [item('A', 0, { status: 'GONE' })] }, ['items', 0, 'status']],
    [
      'bad date format',
      {
        items: [
          item('A', 0, {
            status: 'TEMPORARILY_UNAVAILABLE',
            estimated_back_in_stock_date: '16/06/2030',
          }),
        ],
      },
      ['items', 0, 'estimated_back_in_stock_date'],
    ],
    [
      'impossible date 2025-02-30',
      {
        items: [
          item('A', 0, {
            status: 'TEMPORARILY_UNAVAILABLE',
            estimated_back_in_stock_date: '2025-02-30',
          }),
        ],
      },
      ['items', 0, 'estimated_back_in_stock_date'],
    ],
    [
      'date with a time',
      {
        items: [
          item('A', 0, {
            status: 'TEMPORARILY_UNAVAILABLE',
            estimated_back_in_stock_date: '2030-07-01T00:00:00Z',
          }),
        ],
      },
      ['items', 0, 'estimated_back_in_stock_date'],
    ],
    ['item not an object', { items: ['A'] }, ['items', 0]],
  ])('%s', async (_name, payload, loc) => {
    const details = expectFieldProblems(await rejected(brand1, DIRECT_URL, payload));
    expect(details.map((d) => d.loc)).toEqual([loc]);
  });

  it('items missing is `Field required` / `missing`', async () => {
    const details = expectFieldProblems(await rejected(brand1, DIRECT_URL, {}));
    expect(details).toEqual([{ loc: ['items'], msg: 'Field required', type: 'missing' }]);
  });

  it('1001 items names the limit', async () => {
    const details = expectFieldProblems(
      await rejected(brand1, DIRECT_URL, { items: thousandAndOne }),
    );
    expect(details[0]!.msg).toMatch(/1000/);
  });

  it('exactly 1000 items are accepted', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => item(`SKU-${i}`, i + 1));
    const response = await post(svc, brand1, DIRECT_URL, { items });
    expect(response.statusCode, response.body).toBe(200);
    const [request] = await directReceiver.waitFor(1);
    expect((JSON.parse(request!.body) as { items: unknown[] }).items).toHaveLength(1000);
  });

  it('a duplicate SKU is reported at the second occurrence', async () => {
    const payload = { items: [item('A', 1), item('B', 2), item('A', 3)] };
    const details = expectFieldProblems(await rejected(brand1, DIRECT_URL, payload));
    expect(details).toHaveLength(1);
    expect(details[0]!.loc).toEqual(['items', 2, 'sku']);
    expect(details[0]!.msg).toMatch(/A/);
  });

  it('reports every field problem of the body at once', async () => {
    const payload = {
      items: [item('A', -1), item('B', 'abc'), item('C', 0, { status: 'nope' }), item('A', 1)],
    };
    const details = expectFieldProblems(await rejected(brand1, DIRECT_URL, payload));
    expect(details.map((d) => d.loc)).toEqual(
      expect.arrayContaining([
        ['items', 0, 'available_quantity'],
        ['items', 1, 'available_quantity'],
        ['items', 2, 'status'],
        ['items', 3, 'sku'],
      ]),
    );
    expect(details).toHaveLength(4);
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"items"'],
    ['a number', '42'],
    ['null', 'null'],
  ])('body %s -> 400 Validation failed', async (_name, raw) => {
    const response = await rejected(brand1, DIRECT_URL, raw);
    const body = expect400(response, 'Validation failed', 'details');
    expect(body.error.code).toBe('INVALID_REQUEST');
  });

  it('body an array -> details located at the body', async () => {
    const details = expectFieldProblems(await rejected(brand1, DIRECT_URL, '[{"sku":"A"}]'));
    expect(details.map((d) => d.loc)).toEqual([['body']]);
  });

  it('the same shape for brand 2 at facility 1 (another standard connection)', async () => {
    const details = expectFieldProblems(
      await rejected(admin, DIRECT_FILE_URL, { items: [item('A', '5.5')] }),
    );
    expect(details.map((d) => d.loc)).toEqual([['items', 0, 'available_quantity']]);
  });

  it.each([
    ['brand_id', `/api/v1/inventory/brand/not-a-uuid/facility/${F1}`],
    ['facility_id', `/api/v1/inventory/brand/${B1}/facility/12345`],
  ])('path %s not a UUID -> loc [path, <field>]', async (field, url) => {
    const details = expectFieldProblems(await rejected(admin, url, { items: [item('A', 1)] }));
    expect(details.map((d) => d.loc)).toEqual([['path', field]]);
  });
});

describe('EDI variant (brand 1 at facility 1): details is ONE string', () => {
  it.each<[string, unknown, RegExp]>([
    ['items missing', {}, /items/],
    ['empty list', { items: [] }, /items/],
    ['negative quantity', { items: [item('A', -1)] }, /available_quantity/],
    ['"5.5"', { items: [item('A', '5.5')] }, /available_quantity/],
    ['duplicate SKU', { items: [item('A', 1), item('A', 2)] }, /sku/],
    ['unknown status', { items: [item('A', 0, { status: 'GONE' })] }, /status/],
    ['body not an object', '[]', /\S/],
  ])('%s', async (_name, payload, pattern) => {
    const body = expect400(await rejected(admin, EDI_URL, payload), 'Validation failed', 'details');
    expect(typeof body.error.details).toBe('string');
    expect(body.error.details).toMatch(pattern);
  });

  it('row problems keep the errors list in the EDI variant too', async () => {
    const errors = expectRowProblems(
      await rejected(admin, EDI_URL, { items: [item('A', 3, { status: 'DISCONTINUED' })] }),
    );
    expect(errors).toEqual([{ row_index: 0, field: 'status', message: expect.any(String) }]);
  });
});

describe('row problems: 400 Inventory advice validation failed, errors [{row_index, field, message}]', () => {
  it('a status on a row with stock', async () => {
    const errors = expectRowProblems(
      await rejected(brand1, DIRECT_URL, {
        items: [item('A', 1), item('B', 4, { status: 'DISCONTINUED' })],
      }),
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ row_index: 1, field: 'status' });
    expect(errors[0]!.message).toMatch(/empty|greater than 0/i);
  });

  it('a date on a row with stock', async () => {
    const errors = expectRowProblems(
      await rejected(brand1, DIRECT_URL, {
        items: [item('A', 4, { estimated_back_in_stock_date: '2030-07-01' })],
      }),
    );
    expect(errors.map(({ row_index, field }) => ({ row_index, field }))).toEqual([
      { row_index: 0, field: 'estimated_back_in_stock_date' },
    ]);
  });

  it('one entry per row and field', async () => {
    const errors = expectRowProblems(
      await rejected(brand1, DIRECT_URL, {
        items: [
          item('A', 4, { status: 'DISCONTINUED', estimated_back_in_stock_date: '2030-07-01' }),
          item('B', 1),
          item('C', 0, { status: 'TEMPORARILY_UNAVAILABLE' }),
          item('D', 9, { status: 'DISCONTINUED' }),
        ],
      }),
    );
    const keys = errors.map(({ row_index, field }) => `${row_index}:${field}`).sort();
    expect(keys).toEqual([
      '0:estimated_back_in_stock_date',
      '0:status',
      '2:estimated_back_in_stock_date',
      '3:status',
    ]);
  });

  it.each([
    ['brand 2 at facility 1 (c2 in org 1)', () => admin, DIRECT_FILE_URL],
    ['brand 1 at facility 3 (c3 in org 2)', () => brand1, DIRECT_URL],
  ])('0 without status where the brand has a direct connection: %s', async (_name, who, url) => {
    const errors = expectRowProblems(
      await rejected(who(), url, { items: [item('A', 2), item('B', 0), item('C', '0')] }),
    );
    expect(errors.map(({ row_index, field }) => ({ row_index, field }))).toEqual([
      { row_index: 1, field: 'status' },
      { row_index: 2, field: 'status' },
    ]);
    expect(errors[0]!.message).toMatch(/required/i);
  });

  it('0 without status is fine where the brand has only EDI connections', async () => {
    const response = await post(svc, admin, EDI_URL, { items: [item('A', 0), item('B', 7)] });
    expect(response.statusCode, response.body).toBe(200);
    const [request] = await ediReceiver.waitFor(1);
    expect(x12Quantities(request!.body)).toEqual({ A: 0, B: 7 });
  });

  it('TEMPORARILY_UNAVAILABLE without a date', async () => {
    const errors = expectRowProblems(
      await rejected(brand1, DIRECT_URL, {
        items: [
          item('A', 0, { status: 'TEMPORARILY_UNAVAILABLE', estimated_back_in_stock_date: null }),
        ],
      }),
    );
    expect(errors.map(({ row_index, field }) => ({ row_index, field }))).toEqual([
      { row_index: 0, field: 'estimated_back_in_stock_date' },
    ]);
  });

  it('a date in the past (the local day before today)', async () => {
    const errors = expectRowProblems(
      await rejected(brand1, DIRECT_URL, {
        items: [
          item('A', 0, {
            status: 'TEMPORARILY_UNAVAILABLE',
            estimated_back_in_stock_date: YESTERDAY,
          }),
          item('B', 0, { status: 'DISCONTINUED', estimated_back_in_stock_date: '2001-01-01' }),
        ],
      }),
    );
    expect(errors.map(({ row_index, field }) => ({ row_index, field }))).toEqual([
      { row_index: 0, field: 'estimated_back_in_stock_date' },
      { row_index: 1, field: 'estimated_back_in_stock_date' },
    ]);
    expect(errors[0]!.message).toMatch(/past/i);
  });

  it('rejects in the EDI variant too: a past date', async () => {
    const errors = expectRowProblems(
      await rejected(admin, EDI_URL, {
        items: [
          item('A', 0, {
            status: 'TEMPORARILY_UNAVAILABLE',
            estimated_back_in_stock_date: YESTERDAY,
          }),
        ],
      }),
    );
    expect(errors).toHaveLength(1);
  });
});

describe('accepted input', () => {
  it("today's local date is accepted and the feed carries it", async () => {
    const response = await post(svc, brand1, DIRECT_URL, {
      items: [
        item('A', 0, { status: 'TEMPORARILY_UNAVAILABLE', estimated_back_in_stock_date: TODAY }),
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const [request] = await directReceiver.waitFor(1);
    expect(JSON.parse(request!.body).items).toEqual([
      {
        sku: 'A',
        available_quantity: 0,
        status: 'TEMPORARILY_UNAVAILABLE',
        estimated_back_in_stock_date: TODAY,
      },
    ]);
  });

  it('status is case-insensitive and sent upper-case in the direct feed file', async () => {
    const before = c2Files();
    const response = await post(svc, admin, DIRECT_FILE_URL, {
      items: [
        item('A', 0, { status: 'discontinued' }),
        item('B', 0, {
          status: 'Temporarily_Unavailable',
          estimated_back_in_stock_date: '2030-08-01',
        }),
        item('C', 3, { status: null, estimated_back_in_stock_date: null }),
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('Inventory advice sent successfully');
    const added = c2Files().filter((name) => !before.includes(name));
    expect(added).toHaveLength(1);
    const feed = JSON.parse(readFileSync(join(c2Dir(), added[0]!), 'utf8')) as {
      items: { sku: string; status: string | null; estimated_back_in_stock_date: string | null }[];
    };
    expect(feed.items.map((i) => [i.sku, i.status, i.estimated_back_in_stock_date])).toEqual([
      ['A', 'DISCONTINUED', null],
      ['B', 'TEMPORARILY_UNAVAILABLE', '2030-08-01'],
      ['C', null, null],
    ]);
  });

  it('120, "120" and 120.0 are 120; 5.5 is sent as 5 (direct feed)', async () => {
    const raw =
      '{"items":[{"sku":"N","available_quantity":120},{"sku":"S","available_quantity":"120"},' +
      '{"sku":"F","available_quantity":120.0},{"sku":"H","available_quantity":5.5}]}';
    const response = await post(svc, brand1, DIRECT_URL, raw);
    expect(response.statusCode, response.body).toBe(200);
    const [request] = await directReceiver.waitFor(1);
    const feed = JSON.parse(request!.body) as {
      items: { sku: string; available_quantity: unknown }[];
    };
    expect(feed.items.map((i) => [i.sku, i.available_quantity])).toEqual([
      ['N', 120],
      ['S', 120],
      ['F', 120],
      ['H', 5],
    ]);
  });

  it('the same coercions in the 846 (QTY02)', async () => {
    const raw =
      '{"items":[{"sku":"N","available_quantity":120},{"sku":"S","available_quantity":"120"},' +
      '{"sku":"F","available_quantity":120.0},{"sku":"H","available_quantity":5.5}]}';
    const response = await post(svc, admin, EDI_URL, raw);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('846 inventory advice sent successfully');
    const [request] = await ediReceiver.waitFor(1);
    expect(x12Quantities(request!.body)).toEqual({ N: 120, S: 120, F: 120, H: 5 });
    expect(request!.body).toMatch(/CTT\*4\*365~/);
  });
});

describe('SKUs are printable ASCII (X12 data is ASCII; both feeds must carry the same SKU)', () => {
  const BRAND_URL = '/api/v1/inventory/brand';
  const notAllowed: [string, string, RegExp][] = [
    ['a C1 control (U+0085 NEL)', 'A\u0085B', /must not contain control characters/],
    ['a C1 control (U+009F)', 'A\u009fB', /must not contain control characters/],
    ['an accented letter', 'CAFÉ-1', /"É" \(U\+00C9\) is not allowed/],
    ['a no-break space inside', 'A\u00a0B', /\(U\+00A0\) is not allowed/],
    ['a zero-width space', 'A\u200bB', /\(U\+200B\) is not allowed/],
    ['an emoji', 'BOX-📦', /"📦" \(U\+1F4E6\) is not allowed/],
    ['a full-width letter', 'ＳＫＵ', /\(U\+FF33\) is not allowed/],
  ];

  it.each(notAllowed)('facility endpoint: %s is refused', async (_name, sku, message) => {
    const details = expectFieldProblems(
      await rejected(brand1, DIRECT_URL, { items: [item('OK-1', 1), item(sku, 1)] }),
    );
    expect(details).toEqual([
      { loc: ['items', 1, 'sku'], msg: expect.stringMatching(message), type: 'value_error' },
    ]);
  });

  it.each(notAllowed)('brand-level endpoint: %s is refused', async (_name, sku, message) => {
    const details = expectFieldProblems(
      await rejected(brand1, BRAND_URL, { items: [item(sku, 1)] }),
    );
    expect(details).toEqual([
      { loc: ['items', 0, 'sku'], msg: expect.stringMatching(message), type: 'value_error' },
    ]);
  });

  it('the 846 variant names the SKU problem in its one-string details', async () => {
    const body = expect400(
      await rejected(admin, EDI_URL, { items: [item('CAFÉ', 1)] }),
      'Validation failed',
      'details',
    );
    expect(body.error.details).toMatch(/sku/);
    expect(body.error.details).toMatch(/U\+00C9/);
  });

  it('the non-ASCII message says which character, for the clerk to find it', async () => {
    const details = expectFieldProblems(
      await rejected(brand1, DIRECT_URL, { items: [item('Ñ-7', 1)] }),
    );
    expect(details[0]!.msg).toBe(
      'SKU must use only ASCII letters, digits, spaces and punctuation; "Ñ" (U+00D1) is not allowed',
    );
  });

  it('ASCII punctuation, spaces and the X12 separators pass, and the 846 and the JSON feed carry the same SKUs', async () => {
    const skus = ['A-1/B.2', 'SKU *~>^ 9', 'Q(1)[2]{3}_x,y.z', 'O\'BRIEN "XL" #4 @50% +tax'];
    const response = await post(svc, brand1, BRAND_URL, {
      items: skus.map((sku, i) => item(sku, i + 1)),
    });
    expect(response.statusCode, response.body).toBe(200);
    const [x12] = await ediReceiver.waitFor(1);
    const [feed] = await directReceiver.waitFor(1);
    const fromFeed = (
      JSON.parse(feed!.body) as { items: { sku: string; available_quantity: number }[] }
    ).items;
    const fromX12 = x12Quantities(x12!.body);
    expect(fromFeed.map((i) => i.sku)).toEqual(skus);
    expect(Object.keys(fromX12)).toEqual(skus);
    expect(fromFeed.map((i) => fromX12[i.sku])).toEqual(fromFeed.map((i) => i.available_quantity));
  });
});
