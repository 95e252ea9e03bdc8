import { createHash, randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { documentPath } from '../../src/server/core/file-store';
import type { RunningService } from '../../src/server/http/server';
import { PUSH_BODY_LIMIT } from '../../src/server/sync/central';
import { UNREFERENCED_FILE_QUOTA_BYTES } from '../../src/server/sync/files';
import { bolVersionRow, makePdf } from '../orders/bol-support';
import { centralForAllTests, DEVICES } from './helpers/cluster';
import { signInDevice, syncCall } from './helpers/raw-push';

/** The central's limits on what devices send: BOL files and push bodies (docs/sync.md). */
let central: RunningService;
centralForAllTests((started) => {
  central = started;
});

const RENO_ORDER = '0d000000-0000-4000-8000-000000000001'; // PS-SUM-2611001
const SAVANNAH_ORDER = '0d000000-0000-4000-8000-000000000005'; // PS-SUM-2611005

const call = (path: string, init?: RequestInit & { auth?: string }) =>
  syncCall(central.url, path, init);
const deviceToken = (device: { id: string; secret: string }) => signInDevice(central.url, device);
const digestOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const upload = (auth: string, bytes: Buffer, orderId = RENO_ORDER, digest = digestOf(bytes)) =>
  call(`/api/sync/v1/files/${digest}`, {
    method: 'PUT',
    body: JSON.stringify({ order_id: orderId, content_base64: bytes.toString('base64') }),
    auth,
  });
const stored = async (digest: string) =>
  (await stat(documentPath(central.context.dataDir, digest)).catch(() => null)) !== null;

/** A real PDF of about `size` bytes (an attachment of random bytes), different every time. */
const pdfOfSize = (size: number) => makePdf('BOL', 1, randomBytes(size));

describe('file uploads by digest', () => {
  it('only PDFs: other bytes, and bytes that only look like a PDF, are 400 and not stored', async () => {
    const auth = await deviceToken(DEVICES.w1);
    const text = Buffer.from('just some text, not a bill of lading');
    const fake = Buffer.from('%PDF-1.7\nnot really a pdf at all\n%%EOF\n');
    for (const bytes of [text, fake]) {
      const answer = await upload(auth, bytes);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.message).toMatch(/^The file is not a PDF: file_content is /);
      expect(await stored(digestOf(bytes))).toBe(false);
    }
    const pdf = await makePdf('a real one');
    const ok = await upload(auth, pdf);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await stored(digestOf(pdf))).toBe(true);
  });

  it('tied to an order of the device: another facility’s order is 404; the order id is required', async () => {
    const auth = await deviceToken(DEVICES.w1); // Reno only
    const pdf = await makePdf('for savannah');
    const answer = await upload(auth, pdf, SAVANNAH_ORDER);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ message: 'Order not found', error: { code: 'NOT_FOUND' } });
    expect(await stored(digestOf(pdf))).toBe(false);
    const bare = await call(`/api/sync/v1/files/${digestOf(pdf)}`, {
      method: 'PUT',
      body: JSON.stringify({ content_base64: pdf.toString('base64') }),
      auth,
    });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe('order_id and content_base64 are required');
  });

  it('within the BOL size limit (10 MB)', async () => {
    const auth = await deviceToken(DEVICES.w1);
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x25);
    const answer = await upload(auth, big);
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe(
      'The file is larger than 10485760 bytes (10 MB), the BOL limit',
    );
  });

  it('60 parallel uploads against the quota: what fits is stored, the rest is 429; a BOL naming them frees it', async () => {
    const auth = await deviceToken(DEVICES.w2);
    const pdfs = await Promise.all(Array.from({ length: 60 }, () => pdfOfSize(2 * 1024 * 1024)));
    const answers = await Promise.all(pdfs.map((pdf) => upload(auth, pdf)));
    const accepted = pdfs.filter((_, i) => answers[i]!.status === 200);
    const refused = pdfs.filter((_, i) => answers[i]!.status !== 200);
    for (const [i, answer] of answers.entries()) {
      expect([200, 429], JSON.stringify(answer.body)).toContain(answer.status);
      if (answer.status === 429) {
        expect(answer.body.message).toBe(
          'This device has uploaded 100 MB of files in the last 24 hours that no BOL refers to; push the changes that name them first',
        );
        expect(await stored(digestOf(pdfs[i]!))).toBe(false);
      }
    }
    const acceptedBytes = accepted.reduce((sum, pdf) => sum + pdf.length, 0);
    expect(acceptedBytes).toBeLessThanOrEqual(UNREFERENCED_FILE_QUOTA_BYTES);
    expect(acceptedBytes + Math.min(...refused.map((p) => p.length))).toBeGreaterThan(
      UNREFERENCED_FILE_QUOTA_BYTES,
    );
    expect(refused.length).toBeGreaterThan(0);
    for (const pdf of accepted) expect(await stored(digestOf(pdf))).toBe(true);

    // The same file again counts once (a retry after a lost answer).
    expect((await upload(auth, accepted[0]!)).status).toBe(200);
    // Another device has its own quota.
    expect((await upload(await deviceToken(DEVICES.w1), refused[0]!)).status).toBe(200);

    // Once a BOL version names files, they no longer count.
    await central.context.db
      .insertInto('order_bol_versions')
      .values(
        accepted.slice(0, 5).map((pdf, i) =>
          bolVersionRow({
            id: `b2000000-0000-4000-8000-00000000000${i}`,
            order_id: RENO_ORDER,
            version: 100 + i,
            sha256: digestOf(pdf),
            size: pdf.length,
          }),
        ),
      )
      .execute();
    expect((await upload(auth, refused[1]!)).status).toBe(200);
  }, 120_000);
});

describe('the push body limit', () => {
  it(`is ${PUSH_BODY_LIMIT / 1024 / 1024} MiB: a larger body is 413`, async () => {
    expect(PUSH_BODY_LIMIT).toBe(32 * 1024 * 1024);
    const auth = await deviceToken(DEVICES.w1);
    const answer = await call('/api/sync/v1/push', {
      method: 'POST',
      body: `{"mutations":[],"x":"${'a'.repeat(PUSH_BODY_LIMIT)}"}`,
      auth,
    });
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe(`Request body is too large (limit ${PUSH_BODY_LIMIT} bytes)`);
  });
});
