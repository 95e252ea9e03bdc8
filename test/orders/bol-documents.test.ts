/** The bill-of-lading document pieces: PDF check, content-addressed store, file names. */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  contentDisposition,
  MAX_FILE_NAME_LENGTH,
  sanitiseFileName,
} from '../../src/server/core/file-name';
import { defaultPdfCheckerOptions, PdfChecker } from '../../src/server/core/pdf-check';
import {
  documentPath,
  documentsDir,
  readDocument,
  sha256Of,
  storeDocument,
} from '../../src/server/core/file-store';
import { tmpDir } from '../inventory/support';
import { deflateBomb, hollowed, makePdf, truncated } from './bol-support';

describe('PDF check', () => {
  const checker = new PdfChecker();
  afterAll(() => checker.close());

  it('opens a real PDF and counts its pages', async () => {
    expect(await checker.check(await makePdf('ok', 3))).toEqual({ ok: true, pages: 3 });
  });

  it('refuses bytes without the %PDF- header', async () => {
    const verdict = await checker.check(Buffer.from('PK\x03\x04 a zip file %%EOF'));
    expect(verdict).toEqual({ ok: false, reason: expect.stringContaining('%PDF-') });
  });

  it('refuses a PDF cut short (no %%EOF), which pdf-lib alone would open', async () => {
    const verdict = await checker.check(truncated(await makePdf()));
    expect(verdict).toEqual({ ok: false, reason: expect.stringContaining('truncated') });
  });

  it('refuses a PDF whose body is damaged even though its trailer is there', async () => {
    const verdict = await checker.check(hollowed(await makePdf('hollow', 4)));
    expect(verdict).toEqual({ ok: false, reason: expect.stringContaining('not a readable PDF') });
  });

  it('refuses a deflate bomb without inflating it, and keeps working', async () => {
    const small = new PdfChecker({ ...defaultPdfCheckerOptions, maxDecodedStreamBytes: 1 << 20 });
    try {
      const verdict = await small.check(deflateBomb(16 << 20));
      expect(verdict).toEqual({ ok: false, reason: expect.stringContaining('expands beyond') });
      expect(await small.check(await makePdf())).toEqual({ ok: true, pages: 1 });
    } finally {
      await small.close();
    }
  });

  it('refuses a document that takes longer than the time limit, then recovers', async () => {
    const options = { ...defaultPdfCheckerOptions, timeoutMs: 1 };
    const slow = new PdfChecker(options);
    try {
      // 1 ms is less than starting the worker takes, so the first check always runs out.
      const verdict = await slow.check(await makePdf());
      expect(verdict).toEqual({ ok: false, reason: expect.stringContaining('too long') });
      options.timeoutMs = defaultPdfCheckerOptions.timeoutMs;
      expect(await slow.check(await makePdf())).toEqual({ ok: true, pages: 1 });
    } finally {
      await slow.close();
    }
  });

  it('checks 20 documents at once, each with its own verdict', async () => {
    const inputs = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        i % 2 === 0 ? makePdf(`doc ${i}`, 1 + (i % 3)) : truncated(await makePdf(`doc ${i}`)),
      ),
    );
    const verdicts = await Promise.all(inputs.map((bytes) => checker.check(bytes)));
    verdicts.forEach((verdict, i) => expect(verdict.ok, `document ${i}`).toBe(i % 2 === 0));
  });
});

describe('content-addressed store', () => {
  const dir = tmpDir('bol-store');
  afterAll(() => dir.remove());

  it('writes the bytes once under their SHA-256, owner-only, with no temp files left', async () => {
    const pdf = await makePdf('store');
    const [first, second] = await Promise.all([
      storeDocument(dir.path, pdf),
      storeDocument(dir.path, pdf),
    ]);
    expect(first).toEqual({ sha256: sha256Of(pdf), size: pdf.length });
    expect(second).toEqual(first);
    const path = documentPath(dir.path, first.sha256);
    expect(path).toBe(`${dir.path}/documents/sha256/${first.sha256}.pdf`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(documentsDir(dir.path))).toEqual([`${first.sha256}.pdf`]);
    expect(await readDocument(dir.path, first.sha256)).toEqual(pdf);
  });

  it('removes temp files a killed process left (an hour old), not ones being written', async () => {
    const fresh = tmpDir('bol-sweep');
    try {
      const dir = documentsDir(fresh.path);
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/.tmp-old`, 'half a PDF');
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
      utimesSync(`${dir}/.tmp-old`, twoHoursAgo, twoHoursAgo);
      writeFileSync(`${dir}/.tmp-current`, 'being written');
      const { sha256 } = await storeDocument(fresh.path, await makePdf('sweep'));
      expect(readdirSync(dir).sort()).toEqual(['.tmp-current', `${sha256}.pdf`]);
    } finally {
      fresh.remove();
    }
  });

  it('replaces a file left short under its hash (a copy from before atomic writes)', async () => {
    const pdf = await makePdf('short');
    const path = documentPath(dir.path, sha256Of(pdf));
    await storeDocument(dir.path, pdf);
    chmodSync(path, 0o600);
    writeFileSync(path, pdf.subarray(0, 10));
    await storeDocument(dir.path, pdf);
    expect(await readDocument(dir.path, sha256Of(pdf))).toEqual(pdf);
  });

  it('refuses to serve a damaged file and names that are not digests', async () => {
    const pdf = await makePdf('damaged');
    const { sha256 } = await storeDocument(dir.path, pdf);
    const damaged = Buffer.from(pdf);
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 20) ^ 0xff, damaged.length - 20);
    writeFileSync(documentPath(dir.path, sha256), damaged);
    await expect(readDocument(dir.path, sha256)).rejects.toThrow('damaged');
    expect(() => documentPath(dir.path, '../../app.sqlite')).toThrow('not a SHA-256');
    expect(existsSync(`${dir.path}/documents/sha256`)).toBe(true);
  });
});

describe('file names', () => {
  it.each([
    ['bol-123.pdf', 'bol-123.pdf'],
    ['BOL 123.PDF', 'BOL 123.pdf'],
    ['../../etc/passwd', 'passwd.pdf'],
    ['C:\\Users\\clerk\\Desktop\\bol.pdf', 'bol.pdf'],
    ['/var/tmp/', 'bill-of-lading.pdf'],
    ['..', 'bill-of-lading.pdf'],
    ['', 'bill-of-lading.pdf'],
    ['.hidden.pdf', 'hidden.pdf'],
    ['bol\u0000\r\n.pdf', 'bol.pdf'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe.pdf'],
    ['a"b<c>d|e?f*g:h.pdf', 'a_b_c_d_e_f_g_h.pdf'],
    ['  spaced   out  .pdf  ', 'spaced out.pdf'],
    ['café.pdf', 'café.pdf'],
  ])('%j becomes %j', (raw, expected) => {
    expect(sanitiseFileName(raw)).toBe(expected);
  });

  it(`caps names at ${MAX_FILE_NAME_LENGTH} characters, keeping .pdf and whole characters`, () => {
    const name = sanitiseFileName(`${'😀'.repeat(200)}.pdf`);
    expect(Array.from(name)).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(name.endsWith('😀.pdf')).toBe(true);
  });

  it('says the name in Content-Disposition as ASCII and as exact UTF-8', () => {
    expect(contentDisposition("café d'été.pdf", 'attachment')).toBe(
      `attachment; filename="caf_ d'_t_.pdf"; filename*=UTF-8''caf%C3%A9%20d%27%C3%A9t%C3%A9.pdf`,
    );
  });
});
