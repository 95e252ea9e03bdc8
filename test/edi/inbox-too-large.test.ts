/**
 * A polled file over INBOUND_MAX_BYTES in the EDI inbox (issue 16, item 9): listed like any
 * refused file of the connection, with its name, when, and its size in clerk words; nothing of
 * it kept, so its download and reprocess say so with a 409 and its view has no text. Refused by
 * its size alone (never read), or read and then found over the limit. Recorded once, even while
 * error/ cannot be written. Seen only by admins of the brand in the connection's organisation.
 */
import {
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { InterchangeDetail, InterchangePage } from '../../src/shared/edi-inbox';
import { INBOUND_MAX_BYTES } from '../../src/shared/edi-inbound';
import { pollInboundFolders } from '../../src/server/edi';
import { expectError } from '../api/envelope';
import { dataOf } from '../fulfilment/support';
import { id } from '../helpers/fixtures';
import { describeEngines } from '../helpers/engines';
import { createTestService, type TestService } from '../helpers/service';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { goldenFor } from './inbound-support';
import {
  expectInterchangeHidden,
  inbox,
  inboxBundle,
  interchange,
  reprocess,
} from './inbox-support';
import { partnerSuite } from './partner-suite';

const HUGE = 3 * 1024 ** 3;
const UNREAD_REASON =
  'The file is 3 GB, larger than the 16 MB a file may be; it goes to error/ unread. Ask the retailer to send it in smaller files.';

describeEngines('a polled file too large to take in', (engine) => {
  const tempDir = tempDirsPerTest('edi-too-large');
  const suite = partnerSuite('too-large-retailer');
  let svc: TestService;
  let folder: string;
  const tokens: Record<string, string> = {};

  async function fresh() {
    const dataDir = tempDir();
    svc = suite.svc = await createTestService({
      engine,
      dataDir,
      seed: inboxBundle(suite.partner.url, {
        send: ['856'],
        facility_id: id('f', 1),
        inbound: { type: 'file', directory: 'inbound/r1' },
      }),
    });
    for (const user of ['admin@a.test', 'org2@b.test', 'near@a.test']) {
      tokens[user] = await svc.login(user);
    }
    folder = join(dataDir, 'inbound/r1');
    mkdirSync(folder, { recursive: true });
    return dataDir;
  }
  const poll = () => pollInboundFolders(svc.ctx, { settleMs: 0 });
  /** A sparse file of `bytes` (nothing on disk; reading it whole would fill the memory). */
  const sparse = (name: string, bytes: number) => {
    writeFileSync(join(folder, name), '');
    truncateSync(join(folder, name), bytes);
  };
  const storedRows = () =>
    svc.ctx.db
      .selectFrom('edi_interchanges')
      .select(['file_name', 'outcome', 'raw', 'summary_json', 'organization_id'])
      .orderBy('file_name')
      .execute();

  it('is listed with its size in clerk words; nothing of it is kept, downloaded or reprocessed', async () => {
    await fresh();
    sparse('a-huge.edi', HUGE);
    writeFileSync(join(folder, 'b-po-701.edi'), goldenFor('850-two-orders.edi', 701));

    const polled = await poll();
    expect(polled.map((p) => [p.file, p.moved, p.reason])).toEqual([
      ['a-huge.edi', 'error', UNREAD_REASON],
      ['b-po-701.edi', 'archive', null],
    ]);
    expect(readFileSync(join(folder, 'error', 'a-huge.edi.reason.txt'), 'utf8')).toBe(
      `${UNREAD_REASON}\n`,
    );

    // Stored with an empty text and its size; the connection's organisation owns it.
    const [huge] = await storedRows();
    expect(huge).toMatchObject({
      file_name: 'a-huge.edi',
      outcome: 'refused',
      raw: '',
      organization_id: id('o', 1),
    });
    expect(JSON.parse(huge!.summary_json)).toMatchObject({
      refusal: 'too_large',
      bytes: HUGE,
      max_bytes: INBOUND_MAX_BYTES,
      unread: true,
    });

    const admin = tokens['admin@a.test']!;
    const page = dataOf<InterchangePage>(await inbox(svc, admin, '?outcome=refused'));
    expect(page.interchanges).toHaveLength(1);
    const item = page.interchanges[0]!;
    expect(item).toMatchObject({
      file_name: 'a-huge.edi',
      source: 'file',
      connection_id: id('c', 1),
      retailer_name: 'Retailer One',
      brand_name: 'Brand One',
      outcome: 'refused',
      sets: [],
      reason: UNREAD_REASON,
      content_kept: false,
    });
    expect(Date.parse(item.received_at)).not.toBeNaN();

    // Its view has no text; its download and reprocess say there is none.
    const detail = dataOf<InterchangeDetail>(await interchange(svc, admin, item.id));
    expect(detail).toMatchObject({ segments: [], content_kept: false, reason: UNREAD_REASON });
    const nothing = (what: string) =>
      `Nothing of this file was kept, so there is ${what}: the file is 3 GB, larger than the 16 MB a file may be; it goes to error/ unread. Ask the retailer to send it in smaller files.`;
    expectError(
      await interchange(svc, admin, item.id, '/raw'),
      409,
      'INVALID_REQUEST',
      nothing('no content to download'),
    );
    expectError(
      await reprocess(svc, admin, item.id),
      409,
      'INVALID_REQUEST',
      nothing('nothing to reprocess'),
    );
    // The refusal stands as it was: the reprocess ran nothing.
    expect(JSON.parse((await storedRows())[0]!.summary_json)).not.toHaveProperty('reprocessed_at');

    // Admins of the brand at another organisation see none of it.
    for (const user of ['org2@b.test', 'near@a.test']) {
      const theirs = dataOf<InterchangePage>(await inbox(svc, tokens[user]!));
      expect(theirs.total_count).toBe(0);
      await expectInterchangeHidden(svc, tokens[user]!, item.id);
    }
  });

  it('a file read and then found over the limit is refused the same way, without its text', async () => {
    await fresh();
    // Half the limit on disk (so it is read), but every byte is invalid UTF-8: read as text it
    // is three times that, over the limit.
    writeFileSync(join(folder, 'mangled.edi'), Buffer.alloc(INBOUND_MAX_BYTES / 2, 0xff));

    const reason =
      'The file is 24 MB, larger than the 16 MB a file may be; it goes to error/ and nothing of it was taken in. Ask the retailer to send it in smaller files.';
    expect((await poll()).map((p) => [p.file, p.moved, p.reason])).toEqual([
      ['mangled.edi', 'error', reason],
    ]);
    const [row] = await storedRows();
    expect(row).toMatchObject({ outcome: 'refused', raw: '' });
    expect(JSON.parse(row!.summary_json)).toMatchObject({
      refusal: 'too_large',
      bytes: (INBOUND_MAX_BYTES / 2) * 3,
      unread: false,
    });
    const item = dataOf<InterchangePage>(await inbox(svc, tokens['admin@a.test']!))
      .interchanges[0]!;
    expect(item).toMatchObject({ reason, content_kept: false });
  });

  it('is recorded once while error/ cannot be written, then moved there', async () => {
    const dataDir = await fresh();
    sparse('huge.edi', HUGE);
    // Something that is not a folder where error/ should be (root writes anywhere).
    writeFileSync(join(dataDir, 'not-a-folder'), '');
    symlinkSync(join(dataDir, 'not-a-folder'), join(folder, 'error'));

    for (let pass = 0; pass < 3; pass++) expect(await poll()).toEqual([]);
    expect((await storedRows()).map((r) => [r.file_name, r.outcome])).toEqual([
      ['huge.edi', 'refused'],
    ]);

    rmSync(join(folder, 'error'));
    expect((await poll()).map((p) => [p.file, p.moved, p.reason])).toEqual([
      ['huge.edi', 'error', UNREAD_REASON],
    ]);
    expect(readdirSync(join(folder, 'error')).sort()).toEqual(['huge.edi', 'huge.edi.reason.txt']);
    expect(await storedRows()).toHaveLength(1);
  });
});
