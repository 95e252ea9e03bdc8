/**
 * The file store on PostgreSQL (issue 17, item 3): a bill of lading uploaded through one central
 * process downloads through another, each with its own data dir, because the file lives in the
 * database (`stored_files`), not on the disk of the process that took it. The upload's checks
 * are the same as on SQLite.
 */
import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BOL_MAX_FILE_BYTES } from '../../src/shared/orders';
import { documentsDir, sha256Of } from '../../src/server/core/file-store';
import { expectError } from '../api/envelope';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { get, post, tmpDir } from '../inventory/support';
import { insertTestOrder, makePdf, truncated } from '../orders/bol-support';

const postgres = inject('postgres');
const ORDER = id('c', 901); // brand 1 at facility 1 (organisation 1)

describe.skipIf(!postgres)('bills of lading with two central processes on PostgreSQL', () => {
  const dirs = [tmpDir('pg-files-a'), tmpDir('pg-files-b')];
  let a: TestService;
  let b: TestService;
  let clerk: string;

  beforeAll(async () => {
    a = await createTestService({ engine: 'postgres', seed: baseBundle(), dataDir: dirs[0]!.path });
    b = await createTestService({ postgresUrl: a.postgresUrl, dataDir: dirs[1]!.path });
    await insertTestOrder(a.ctx.db, {
      id: ORDER,
    });
    clerk = await a.login('viewer@a.test');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    for (const dir of dirs) dir.remove();
  });

  const body = (file: Buffer) => ({ file_content: file.toString('base64'), file_name: 'bol.pdf' });
  const storedCount = async () =>
    (await sql<{ n: number }>`SELECT count(*) AS n FROM stored_files`.execute(a.ctx.db)).rows[0]!.n;

  it('uploaded through A, downloaded through B: the same bytes, stored once, on no disk', async () => {
    const pdf = await makePdf('BOL on PostgreSQL', 2);
    const before = await storedCount();
    const uploaded = await post(a, clerk, `/api/documents/bol/${ORDER}`, body(pdf));
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    // The same file again (a second version) is stored once.
    expect((await post(b, clerk, `/api/documents/bol/${ORDER}`, body(pdf))).statusCode).toBe(200);
    expect(await storedCount()).toBe(before + 1);

    const versions = (await get(b, clerk, `/api/v1/orders/${ORDER}/bol`)).json().data as {
      file_url: string;
    }[];
    expect(versions).toHaveLength(2);
    for (const svc of [b, a]) {
      const file = await get(svc, clerk, versions.at(-1)!.file_url);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toMatch(/^application\/pdf/);
      expect(file.rawPayload.equals(pdf)).toBe(true);
    }
    const row = await sql<{ size: number; content: Buffer }>`
      SELECT size, content FROM stored_files WHERE sha256 = ${sha256Of(pdf)}`.execute(b.ctx.db);
    expect(row.rows[0]!.size).toBe(pdf.length);
    for (const dir of dirs) expect(existsSync(documentsDir(dir.path))).toBe(false);
  });

  it('a damaged stored file is not served as the bill of lading', async () => {
    const pdf = await makePdf('BOL to damage', 1);
    expect((await post(a, clerk, `/api/documents/bol/${ORDER}`, body(pdf))).statusCode).toBe(200);
    await sql`UPDATE stored_files SET content = ${truncated(pdf)}, size = ${truncated(pdf).length}
      WHERE sha256 = ${sha256Of(pdf)}`.execute(a.ctx.db);
    const versions = (await get(b, clerk, `/api/v1/orders/${ORDER}/bol`)).json().data as {
      file_url: string;
    }[];
    const file = await get(b, clerk, versions[0]!.file_url);
    expect(file.statusCode).toBe(500);
    expect(file.rawPayload.includes(truncated(pdf))).toBe(false);
  });

  it('refuses what it refuses on SQLite, and stores nothing', async () => {
    const before = await storedCount();
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const notPdf = expectError(
      await post(b, clerk, `/api/documents/bol/${ORDER}`, body(png)),
      400,
      'INVALID_REQUEST',
    ) as { error: { details?: string } };
    expect(notPdf.error.details).toMatch(/not a PDF/);
    const oversized = Buffer.alloc(BOL_MAX_FILE_BYTES + 1, 0x20);
    oversized.write('%PDF-1.7\n');
    const tooLarge = expectError(
      await post(a, clerk, `/api/documents/bol/${ORDER}`, body(oversized)),
      413,
      'INVALID_REQUEST',
    ) as { error: { details?: string } };
    expect(tooLarge.error.details).toMatch(/larger than 10485760 bytes/);
    expect(await storedCount()).toBe(before);
  });
});
