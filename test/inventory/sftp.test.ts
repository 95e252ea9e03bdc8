/**
 * Advice over SFTP to a real SSH server on 127.0.0.1 (test/helpers/sftp-server.ts): the 846 and
 * the direct feed land in the partner's directory with exactly the stored bytes; a wrong password
 * is a failed result (not retried); so is a host key that does not match, or none at all.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { startSftpServer, type RunningSftpServer } from '../helpers/sftp-server';
import {
  facilityUrl,
  FAST_POLICY,
  get,
  isa13Of,
  post,
  setTransport,
  strictParse,
  tmpDir,
  x12Quantities,
} from './support';

const USERNAME = 'partner';
const PASSWORD = 'sftp-secret-1';
const [B1, B2, F1, F3] = [id('b', 1), id('b', 2), id('f', 1), id('f', 3)];

let svc: TestService;
let server: RunningSftpServer;
let root: ReturnType<typeof tmpDir>;
let data: ReturnType<typeof tmpDir>;
let admin: string;
let brand1: string;

const inbox = () => readdirSync(join(root.path, 'in')).sort();

beforeAll(async () => {
  root = tmpDir('sftp-root');
  data = tmpDir('sftp-data');
  mkdirSync(join(root.path, 'in'));
  server = await startSftpServer({ root: root.path, username: USERNAME, password: PASSWORD });
  const sftp = (password: string) => ({
    type: 'sftp' as const,
    host: '127.0.0.1',
    port: server.port,
    username: USERNAME,
    password,
    directory: '/in',
    host_key_sha256: server.hostKeySha256,
  });
  const bundle = baseBundle();
  setTransport(bundle, id('c', 1), sftp(PASSWORD)); // EDI, brand 1 at facility 1
  setTransport(bundle, id('c', 2), sftp(PASSWORD)); // DIRECT, brand 2 at facility 1
  setTransport(bundle, id('c', 3), sftp('wrong-password')); // DIRECT, brand 1 at facility 3
  bundle.users[0]!.admin.push({ brand_id: B2, facility_id: F1 });
  svc = await createTestService({
    seed: bundle,
    dataDir: data.path,
    deliveryPolicy: { ...FAST_POLICY, attemptTimeoutMs: 3000, totalBudgetMs: 6000 },
  });
  admin = await svc.login('admin@a.test');
  brand1 = await svc.login('brand1@a.test');
});

afterAll(async () => {
  await svc?.close();
  await server?.close();
  root?.remove();
  data?.remove();
});

async function storedDocument(bearer: string, deliveryId: string) {
  const response = await get(svc, bearer, `/api/v1/inventory/deliveries/${deliveryId}/document`);
  expect(response.statusCode, response.body).toBe(200);
  return response;
}

describe('sftp transport', () => {
  it('the 846 lands in the directory with the exact bytes of the stored document', async () => {
    const response = await post(svc, admin, facilityUrl(B1, F1), {
      items: [
        { sku: 'S-1', available_quantity: 9 },
        { sku: 'S-2', available_quantity: 0 },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('846 inventory advice sent successfully');
    const [result] = response.json().data.results as { delivery_id: string; success: boolean }[];
    expect(result!.success).toBe(true);

    expect(inbox()).toEqual(['846_000000001.x12']);
    const landed = readFileSync(join(root.path, 'in', '846_000000001.x12'));
    const stored = await storedDocument(admin, result!.delivery_id);
    expect(stored.headers['content-type']).toMatch(/^application\/edi-x12/);
    expect(landed.equals(Buffer.from(stored.body, 'utf8'))).toBe(true);
    const text = landed.toString('utf8');
    strictParse(text);
    expect(isa13Of(text)).toBe('000000001');
    expect(x12Quantities(text)).toEqual({ 'S-1': 9, 'S-2': 0 });
  });

  it('the direct feed lands as JSON, byte for byte; no partial files are left', async () => {
    const before = inbox();
    const response = await post(svc, admin, facilityUrl(B2, F1), {
      items: [{ sku: 'J-1', available_quantity: 0, status: 'discontinued' }],
    });
    expect(response.statusCode, response.body).toBe(200);
    const [result] = response.json().data.results as { delivery_id: string }[];
    const added = inbox().filter((name) => !before.includes(name));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/\.json$/);
    const landed = readFileSync(join(root.path, 'in', added[0]!), 'utf8');
    expect(landed).toBe((await storedDocument(admin, result!.delivery_id)).body);
    expect(JSON.parse(landed).items).toEqual([
      {
        sku: 'J-1',
        available_quantity: 0,
        status: 'DISCONTINUED',
        estimated_back_in_stock_date: null,
      },
    ]);
    expect(inbox().filter((name) => /\.part$|\.tmp$/.test(name))).toEqual([]);
  });

  it('a wrong password is a failed result, tried once, and nothing lands', async () => {
    const before = inbox();
    const response = await post(svc, brand1, facilityUrl(B1, F3), {
      items: [{ sku: 'W-1', available_quantity: 3 }],
    });
    expect(response.statusCode, response.body).toBe(502);
    const body = response.json();
    expect(body.message).toBe('Inventory advice failed for all connections');
    expect(body.error).toEqual({ code: 'DELIVERY_FAILED' });
    expect(body.data.summary).toEqual({ total: 1, succeeded: 0, failed: 1 });
    const [result] = body.data.results as { success: boolean; error: string }[];
    expect(result!.success).toBe(false);
    expect(result!.error).toMatch(/^EAUTH: /);
    expect(inbox()).toEqual(before);

    const log = await svc.ctx.db
      .selectFrom('transactions')
      .select(['execution_status', 'request_url', 'error_message'])
      .where('correlation_id', '=', body.data.snapshot_id)
      .execute();
    expect(log).toHaveLength(1);
    expect(log[0]!.execution_status).toBe('FAILURE');
    // No user-info in the log (redact-url.ts).
    expect(log[0]!.request_url).toMatch(new RegExp(`^sftp://127\\.0\\.0\\.1:${server.port}/in/`));
    expect(log[0]!.error_message).toMatch(/^EAUTH: /);
  });

  describe('host key', () => {
    const c3 = id('c', 3);
    let original: string;
    beforeAll(async () => {
      original = (
        await svc.ctx.db
          .selectFrom('connections')
          .select('transport_json')
          .where('id', '=', c3)
          .executeTakeFirstOrThrow()
      ).transport_json;
    });
    afterAll(async () => {
      await setStoredTransport(JSON.parse(original) as Record<string, unknown>);
    });
    const setStoredTransport = (transport: Record<string, unknown>) =>
      svc.ctx.db
        .updateTable('connections')
        .set({ transport_json: JSON.stringify(transport) })
        .where('id', '=', c3)
        .execute();
    const stored = () => JSON.parse(original) as Record<string, unknown>;

    it.each([
      [
        'does not match',
        { host_key_sha256: Buffer.alloc(32, 1).toString('hex') },
        /does not match/,
      ],
      // A connection stored before host keys existed.
      ['is missing', { host_key_sha256: undefined }, /no host_key_sha256 is configured/],
    ])(
      'a key that %s fails the delivery once (not retried) and nothing lands',
      async (_name, change, message) => {
        await setStoredTransport({ ...stored(), password: PASSWORD, ...change });
        const before = inbox();
        const response = await post(svc, brand1, facilityUrl(B1, F3), {
          items: [{ sku: 'K-1', available_quantity: 1 }],
        });
        expect(response.statusCode, response.body).toBe(502);
        const body = response.json();
        const [result] = body.data.results as { success: boolean; error: string }[];
        expect(result!.error).toMatch(/^EHOSTKEY: /);
        expect(result!.error).toMatch(message);
        expect(inbox()).toEqual(before);
        const log = await svc.ctx.db
          .selectFrom('transactions')
          .select(['execution_status', 'error_message'])
          .where('correlation_id', '=', body.data.snapshot_id)
          .execute();
        expect(log).toEqual([{ execution_status: 'FAILURE', error_message: result!.error }]);
      },
    );

    it('the right key (and password) delivers', async () => {
      await setStoredTransport({ ...stored(), password: PASSWORD });
      const response = await post(svc, brand1, facilityUrl(B1, F3), {
        items: [{ sku: 'K-2', available_quantity: 2 }],
      });
      expect(response.statusCode, response.body).toBe(200);
    });
  });
});
