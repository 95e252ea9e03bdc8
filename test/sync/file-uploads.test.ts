import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { Engine } from '../../src/server/db/engine';
import { storedFileSize } from '../../src/server/db/stored-files';
import { startService, type RunningService } from '../../src/server/http/server';
import { PUSH_BODY_LIMIT } from '../../src/server/sync/central';
import { UNREFERENCED_FILE_QUOTA_BYTES } from '../../src/server/sync/files';
import { describeEngines } from '../helpers/engines';
import { TEST_PASSWORD_COST } from '../helpers/service';
import { bolVersionRow, makePdf } from '../orders/bol-support';
import { centralForAllTests, DEVICES, tempDataDir, type TestCentral } from './helpers/cluster';
import { signInDevice, syncCall } from './helpers/raw-push';

/**
 * The central's limits on what devices send: BOL files (on both engines: the data dir on
 * SQLite, `stored_files` on PostgreSQL) and push bodies (docs/sync.md).
 */
const RENO_ORDER = '0d000000-0000-4000-8000-000000000001'; // PS-SUM-2611001
const SAVANNAH_ORDER = '0d000000-0000-4000-8000-000000000005'; // PS-SUM-2611005

const digestOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const deviceToken = (central: RunningService, device: { id: string; secret: string }) =>
  signInDevice(central.url, device);
const upload = (
  central: RunningService,
  auth: string,
  bytes: Buffer,
  orderId = RENO_ORDER,
  digest = digestOf(bytes),
) =>
  syncCall(central.url, `/api/sync/v1/files/${digest}`, {
    method: 'PUT',
    body: JSON.stringify({ order_id: orderId, content_base64: bytes.toString('base64') }),
    auth,
  });
const download = (central: RunningService, auth: string, digest: string) =>
  syncCall(central.url, `/api/sync/v1/files/${digest}`, { auth });
/** Whether the central's file store (whichever the engine chose) has the file. */
const stored = async (central: RunningService, digest: string) =>
  (await storedFileSize(central.context, digest)) !== null;

/** Names the file in a BOL version of the order, as a pushed mutation would. */
let nextBolVersion = 0;
async function nameInBol(central: RunningService, orderId: string, files: Buffer[]) {
  await central.context.db
    .insertInto('order_bol_versions')
    .values(
      files.map((pdf) => {
        nextBolVersion += 1;
        return bolVersionRow({
          id: `b2000000-0000-4000-8000-${String(nextBolVersion).padStart(12, '0')}`,
          order_id: orderId,
          version: 100 + nextBolVersion,
          sha256: digestOf(pdf),
          size: pdf.length,
        });
      }),
    )
    .execute();
}

/** A real PDF of about `size` bytes (an attachment of random bytes), different every time. */
const pdfOfSize = (size: number) => makePdf('BOL', 1, randomBytes(size));

/**
 * One central for all of a suite's tests, on the engine's database (a fresh clone on PostgreSQL);
 * `databaseUrl()` is that clone's URL, for a second central process on it.
 */
function centralOn(engine: Engine) {
  let central: TestCentral;
  centralForAllTests((started) => {
    central = started;
  }, engine);
  return Object.assign(() => central, { databaseUrl: () => central.databaseUrl! });
}

describeEngines('file uploads by digest', (engine) => {
  const central = centralOn(engine);

  it('only PDFs: other bytes, and bytes that only look like a PDF, are 400 and not stored', async () => {
    const auth = await deviceToken(central(), DEVICES.w1);
    const text = Buffer.from('just some text, not a bill of lading');
    const fake = Buffer.from('%PDF-1.7\nnot really a pdf at all\n%%EOF\n');
    for (const bytes of [text, fake]) {
      const answer = await upload(central(), auth, bytes);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.message).toMatch(/^The file is not a PDF: file_content is /);
      expect(await stored(central(), digestOf(bytes))).toBe(false);
    }
    const pdf = await makePdf('a real one');
    const ok = await upload(central(), auth, pdf);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await stored(central(), digestOf(pdf))).toBe(true);
  });

  it('tied to an order of the device: another facility’s order is 404; the order id is required', async () => {
    const auth = await deviceToken(central(), DEVICES.w1); // Reno only
    const pdf = await makePdf('for savannah');
    const answer = await upload(central(), auth, pdf, SAVANNAH_ORDER);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ message: 'Order not found', error: { code: 'NOT_FOUND' } });
    expect(await stored(central(), digestOf(pdf))).toBe(false);
    const bare = await syncCall(central().url, `/api/sync/v1/files/${digestOf(pdf)}`, {
      method: 'PUT',
      body: JSON.stringify({ content_base64: pdf.toString('base64') }),
      auth,
    });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe('order_id and content_base64 are required');
  });

  it('within the BOL size limit (10 MB)', async () => {
    const auth = await deviceToken(central(), DEVICES.w1);
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x25);
    const answer = await upload(central(), auth, big);
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe(
      'The file is larger than 10485760 bytes (10 MB), the BOL limit',
    );
  });

  it('60 parallel uploads against the quota: what fits is stored, the rest is 429; a BOL naming them frees it', async () => {
    const auth = await deviceToken(central(), DEVICES.w2);
    const pdfs = await Promise.all(Array.from({ length: 60 }, () => pdfOfSize(2 * 1024 * 1024)));
    const answers = await Promise.all(pdfs.map((pdf) => upload(central(), auth, pdf)));
    const accepted = pdfs.filter((_, i) => answers[i]!.status === 200);
    const refused = pdfs.filter((_, i) => answers[i]!.status !== 200);
    for (const [i, answer] of answers.entries()) {
      expect([200, 429], JSON.stringify(answer.body)).toContain(answer.status);
      if (answer.status === 429) {
        expect(answer.body.message).toBe(
          'This device has uploaded 100 MB of files in the last 24 hours that no BOL refers to; push the changes that name them first',
        );
        expect(await stored(central(), digestOf(pdfs[i]!))).toBe(false);
      }
    }
    const acceptedBytes = accepted.reduce((sum, pdf) => sum + pdf.length, 0);
    expect(acceptedBytes).toBeLessThanOrEqual(UNREFERENCED_FILE_QUOTA_BYTES);
    expect(acceptedBytes + Math.min(...refused.map((p) => p.length))).toBeGreaterThan(
      UNREFERENCED_FILE_QUOTA_BYTES,
    );
    expect(refused.length).toBeGreaterThan(0);
    for (const pdf of accepted) expect(await stored(central(), digestOf(pdf))).toBe(true);

    // The same file again counts once (a retry after a lost answer).
    expect((await upload(central(), auth, accepted[0]!)).status).toBe(200);
    // Another device has its own quota.
    expect(
      (await upload(central(), await deviceToken(central(), DEVICES.w1), refused[0]!)).status,
    ).toBe(200);

    // Once a BOL version names files, they no longer count.
    await nameInBol(central(), RENO_ORDER, accepted.slice(0, 5));
    expect((await upload(central(), auth, refused[1]!)).status).toBe(200);
  }, 120_000);

  it('downloads the same bytes once a BOL of its facility names the file; another facility’s device gets 404', async () => {
    const auth = await deviceToken(central(), DEVICES.w1);
    const pdf = await makePdf('downloaded again', 2);
    expect((await upload(central(), auth, pdf)).status).toBe(200);
    // Not named by a BOL yet: nobody downloads it.
    expect((await download(central(), auth, digestOf(pdf))).status).toBe(404);
    await nameInBol(central(), RENO_ORDER, [pdf]);
    const answer = await download(
      central(),
      await deviceToken(central(), DEVICES.w2),
      digestOf(pdf),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const body = answer.body as unknown as { content_base64: string };
    expect(Buffer.from(body.content_base64, 'base64').equals(pdf)).toBe(true);
    const savannah = await download(
      central(),
      await deviceToken(central(), DEVICES.w3),
      digestOf(pdf),
    );
    expect(savannah.status).toBe(404);
    expect(savannah.body).toMatchObject({
      message: 'File not found',
      error: { code: 'NOT_FOUND' },
    });
  });

  it('a digest that is not the content’s, or not a digest, and bad base64 are 400 and store nothing', async () => {
    const auth = await deviceToken(central(), DEVICES.w1);
    const pdf = await makePdf('misnamed');
    const wrong = digestOf(Buffer.from('something else'));
    const mismatch = await upload(central(), auth, pdf, RENO_ORDER, wrong);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe('The content does not match its SHA-256');
    expect(await stored(central(), digestOf(pdf))).toBe(false);
    expect(await stored(central(), wrong)).toBe(false);

    const notDigest = await upload(central(), auth, pdf, RENO_ORDER, 'ABC');
    expect(notDigest.status).toBe(400);
    expect(notDigest.body.message).toBe('The file name must be a SHA-256 digest');
    expect((await download(central(), auth, 'not-a-digest')).status).toBe(400);

    for (const text of ['%%%not-base64%%%', 'abc']) {
      const answer = await syncCall(central().url, `/api/sync/v1/files/${digestOf(pdf)}`, {
        method: 'PUT',
        body: JSON.stringify({ order_id: RENO_ORDER, content_base64: text }),
        auth,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('content_base64 is not valid base64');
    }
    expect(await stored(central(), digestOf(pdf))).toBe(false);
  });

  describe('the push body limit', () => {
    it(`is ${PUSH_BODY_LIMIT / 1024 / 1024} MiB: a larger body is 413`, async () => {
      expect(PUSH_BODY_LIMIT).toBe(32 * 1024 * 1024);
      const auth = await deviceToken(central(), DEVICES.w1);
      const answer = await syncCall(central().url, '/api/sync/v1/push', {
        method: 'POST',
        body: `{"mutations":[],"x":"${'a'.repeat(PUSH_BODY_LIMIT)}"}`,
        auth,
      });
      expect(answer.status).toBe(413);
      expect(answer.body.message).toBe(
        `Request body is too large (limit ${PUSH_BODY_LIMIT} bytes)`,
      );
    });
  });
});

describe.skipIf(!inject('postgres'))(
  'file transfer through two central processes on PostgreSQL',
  () => {
    const central = centralOn('postgres');
    let b: RunningService | undefined;
    /** A second central on the same database, with a data dir of its own. */
    const other = async () =>
      (b ??= await startService(
        {
          host: '127.0.0.1',
          port: 0,
          dataDir: tempDataDir('central-b'),
          databaseUrl: central.databaseUrl(),
          seed: null,
          uiDir: null,
          outboxDrain: false,
          sync: { role: 'central' },
        },
        { passwordCost: TEST_PASSWORD_COST },
      ));
    afterAll(async () => {
      await b?.close();
    });

    it('uploaded through A, downloaded through B: the same bytes', async () => {
      const a = central();
      const pdf = await makePdf('through A', 2);
      expect((await upload(a, await deviceToken(a, DEVICES.w1), pdf)).status).toBe(200);
      await nameInBol(a, RENO_ORDER, [pdf]);
      const onB = await other();
      const answer = await download(onB, await deviceToken(onB, DEVICES.w2), digestOf(pdf));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const body = answer.body as unknown as { content_base64: string };
      expect(Buffer.from(body.content_base64, 'base64').equals(pdf)).toBe(true);
      expect(await stored(onB, digestOf(pdf))).toBe(true);
    });

    it('50 parallel uploads split between A and B do not overshoot the quota', async () => {
      const processes = [central(), await other()];
      const auths = await Promise.all(processes.map((p) => deviceToken(p, DEVICES.w1)));
      const pdfs = await Promise.all(Array.from({ length: 50 }, () => pdfOfSize(3 * 1024 * 1024)));
      const answers = await Promise.all(
        pdfs.map((pdf, i) => upload(processes[i % 2]!, auths[i % 2]!, pdf)),
      );
      for (const answer of answers) expect([200, 429]).toContain(answer.status);
      const accepted = pdfs.filter((_, i) => answers[i]!.status === 200);
      const acceptedBytes = accepted.reduce((sum, pdf) => sum + pdf.length, 0);
      expect(acceptedBytes).toBeLessThanOrEqual(UNREFERENCED_FILE_QUOTA_BYTES);
      const refused = pdfs.filter((_, i) => answers[i]!.status !== 200);
      expect(refused.length).toBeGreaterThan(0);
      expect(acceptedBytes + Math.min(...refused.map((p) => p.length))).toBeGreaterThan(
        UNREFERENCED_FILE_QUOTA_BYTES,
      );
    }, 120_000);
  },
);
