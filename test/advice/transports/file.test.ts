import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deliver,
  type DeliverContext,
} from '../../../src/server/inventory/transmission/transports';
import { climbsOutOfDataDir } from '../../../src/server/inventory/transmission/transports/file';
import type { OutboundDocument } from '../../../src/server/inventory/transmission/types';
import { defaultDeliveryPolicy } from '../../../src/server/inventory/transmission/types';

let dataDir: string;
let ctx: DeliverContext;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'file-transport-'));
  ctx = { dataDir, policy: defaultDeliveryPolicy, sleep: async () => {} };
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const doc: OutboundDocument = {
  body: 'ISA*00*~\nLIN**SK*ÄÖÜ-€-1~\r\nIEA*1*000000101~',
  contentType: 'application/edi-x12',
  fileName: '846_000000101.x12',
  idempotencyKey: 'adv-000000101',
};

describe('file transport', () => {
  it('resolves a relative directory under dataDir, creating it', async () => {
    const outcome = await deliver({ type: 'file', directory: 'outbox/edi/846' }, doc, ctx);

    const expectedPath = join(dataDir, 'outbox', 'edi', '846', doc.fileName);
    expect(outcome.success).toBe(true);
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.attempts[0]).toMatchObject({
      status: 'SUCCESS',
      requestUrl: pathToFileURL(expectedPath).href,
      error: null,
    });
    expect(outcome.attempts[0]!.requestUrl).toMatch(/^file:\/\/\//);
    const written = await readFile(expectedPath);
    expect(written.equals(Buffer.from(doc.body, 'utf8'))).toBe(true);
    expect(await readdir(join(dataDir, 'outbox', 'edi', '846'))).toEqual([doc.fileName]);
  });

  it('writes into an absolute directory as given', async () => {
    const absolute = join(dataDir, 'elsewhere', 'drop');
    const outcome = await deliver({ type: 'file', directory: absolute }, doc, {
      ...ctx,
      dataDir: '/must/not/be/used',
    });

    expect(outcome.success).toBe(true);
    expect(await readFile(join(absolute, doc.fileName), 'utf8')).toBe(doc.body);
    expect(await readdir(absolute)).toEqual([doc.fileName]);
  });

  it('replaces an existing file and leaves no temp files', async () => {
    await deliver({ type: 'file', directory: 'out' }, { ...doc, body: 'first' }, ctx);
    const outcome = await deliver(
      { type: 'file', directory: 'out' },
      { ...doc, body: 'second' },
      ctx,
    );

    expect(outcome.success).toBe(true);
    expect(await readFile(join(dataDir, 'out', doc.fileName), 'utf8')).toBe('second');
    expect(await readdir(join(dataDir, 'out'))).toEqual([doc.fileName]);
  });

  it('refuses a file name that would leave the directory', async () => {
    const outcome = await deliver(
      { type: 'file', directory: 'out' },
      { ...doc, fileName: '../x.x12' },
      ctx,
    );

    expect(outcome.success).toBe(false);
    expect(outcome.error).toBe('EINVAL: invalid file name "../x.x12"');
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('fails without retrying when the directory cannot be created', async () => {
    await writeFile(join(dataDir, 'blocker'), 'a file where a directory should be');
    const outcome = await deliver({ type: 'file', directory: 'blocker/out' }, doc, ctx);

    expect(outcome.success).toBe(false);
    expect(outcome.error).toMatch(/^(ENOTDIR|EEXIST): /);
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
  });

  it.each(['../elsewhere', 'outbox/../../elsewhere', '..'])(
    'refuses a relative directory that climbs out of the data dir: %s',
    async (directory) => {
      const outcome = await deliver({ type: 'file', directory }, doc, ctx);
      expect(outcome.success).toBe(false);
      expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
      expect(outcome.error).toBe(
        `EINVAL: file transport directory ${JSON.stringify(directory)} climbs out of the data ` +
          "dir with '..'; use a folder inside the data dir or an absolute path",
      );
      // Nothing was written beside the data dir.
      const parent = join(dataDir, '..');
      expect(await readdir(parent)).not.toContain('elsewhere');
      expect(await readdir(parent)).not.toContain(doc.fileName);
    },
  );

  it('allows `..` that stays inside the data dir, and absolute paths with `..`', async () => {
    const inside = await deliver({ type: 'file', directory: 'outbox/a/../b' }, doc, ctx);
    expect(inside.error).toBeNull();
    expect(await readdir(join(dataDir, 'outbox', 'b'))).toEqual([doc.fileName]);
    const absolute = join(dataDir, 'x', '..', 'y');
    const outside = await deliver({ type: 'file', directory: absolute }, doc, ctx);
    expect(outside.error).toBeNull();
    expect(await readdir(join(dataDir, 'y'))).toEqual([doc.fileName]);
  });
});

describe('climbsOutOfDataDir', () => {
  it.each<[string, boolean]>([
    ['outbox/r1', false],
    ['outbox/../r1', false],
    ['./outbox', false],
    ['..foo/bar', false],
    ['..', true],
    ['../x', true],
    ['a/../../x', true],
    ['/srv/edi/../drop', false],
  ])('%s -> %s', (directory, climbs) => {
    expect(climbsOutOfDataDir(directory)).toBe(climbs);
  });
});
