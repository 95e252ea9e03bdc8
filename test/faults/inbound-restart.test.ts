/**
 * A polled file whose move out of the inbound directory failed, then a restart (issue 16): the
 * in-memory note of ./inbound-unmoved.ts is gone, so the stored rows decide. The same file (same
 * name, byte-identical text) is only moved: no second interchange row, no second 997, no log
 * rows; to archive/ when it was taken in, to error/ with the stored reason when it was refused
 * (too large included). Another text under the same name is a new file and is taken in. The
 * look-up goes through the index on (connection_id, file_name).
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
import { CompiledQuery, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { pollInboundFolders } from '../../src/server/edi';
import { polledRowsQuery } from '../../src/server/edi/inbound-taken';
import { describeEngines } from '../helpers/engines';
import { id } from '../helpers/fixtures';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { goldenFor, polledInboundBundle } from '../edi/inbound-support';
import { until } from '../edi/support';

describeEngines('a polled file whose move failed, after a restart', (engine) => {
  const tempDir = tempDirsPerTest('faults-inbound-restart');
  let partner: Receiver;
  /** The services a test opened, closed last first (on PostgreSQL the first owns the database). */
  const services: TestService[] = [];

  beforeAll(async () => {
    partner = await startReceiver(ok, 'restart-retailer');
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    for (const svc of services.splice(0).reverse()) {
      await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 997 sends');
      await svc.close();
    }
  });

  /** The first run: connection 1 polls inbound/r1 of a data dir whose database outlives it. */
  async function firstRun() {
    const dataDir = tempDir();
    const svc = await createTestService({
      engine,
      dataDir,
      ...(engine === 'sqlite' ? { sqliteDir: dataDir } : {}),
      seed: polledInboundBundle(partner.url, { type: 'file', directory: 'inbound/r1' }),
    });
    services.push(svc);
    const folder = join(dataDir, 'inbound/r1');
    mkdirSync(folder, { recursive: true });
    return { svc, dataDir, folder };
  }

  /**
   * A fresh service on the same database, as after a restart. On SQLite the first one is closed
   * and its file opened again; on PostgreSQL the first keeps the database (it drops it at the
   * end) and is not used again.
   */
  async function restart(first: TestService, dataDir: string) {
    await until(() => first.ctx.deliveriesInFlight.size === 0, 'the 997 sends');
    if (engine === 'sqlite') {
      services.splice(services.indexOf(first), 1);
      await first.close();
    }
    const svc = await createTestService(
      engine === 'sqlite'
        ? { engine, dataDir, sqliteDir: dataDir }
        : { engine, dataDir, postgresUrl: first.postgresUrl! },
    );
    services.push(svc);
    return svc;
  }

  const poll = (svc: TestService) => pollInboundFolders(svc.ctx, { settleMs: 0 });
  /** Something that is not a folder where archive/ or error/ should be (root writes anywhere). */
  const block = (dataDir: string, folder: string, sub: string) => {
    writeFileSync(join(dataDir, `not-a-folder-${sub}`), '');
    symlinkSync(join(dataDir, `not-a-folder-${sub}`), join(folder, sub));
  };
  /** What the inbound path wrote: interchanges, 997s and ingest log rows. */
  async function written(svc: TestService) {
    // The 997 goes out after the ingest's commit, and its send writes a log row: let it land.
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 997 sends');
    const db = svc.ctx.db;
    const [interchanges, acks, logs] = await Promise.all([
      db
        .selectFrom('edi_interchanges')
        .select(['file_name', 'outcome', 'summary_json'])
        .orderBy('received_at')
        .orderBy('file_name')
        .execute(),
      db.selectFrom('order_documents').select('id').where('type', '=', '997').execute(),
      db
        .selectFrom('transactions')
        .select('transaction_id')
        .where('action_type', 'in', ['INGEST_PURCHASE_ORDER', 'SEND_FUNCTIONAL_ACK'])
        .where('correlation_id', '!=', id('c', 1)) // not the poll status rows
        .execute(),
    ]);
    return {
      interchanges: interchanges.map((row) => [row.file_name, row.outcome]),
      summaries: interchanges.map((row) => JSON.parse(row.summary_json) as { refused?: string }),
      acks: acks.length,
      logs: logs.length,
    };
  }

  it('a file taken in is only moved to archive/: no second row, no second 997', async () => {
    const { svc: first, dataDir, folder } = await firstRun();
    writeFileSync(join(folder, 'po-811.edi'), goldenFor('850-two-orders.edi', 811));
    block(dataDir, folder, 'archive');
    expect(await poll(first)).toEqual([]);
    const before = await written(first);
    expect(before.interchanges).toEqual([['po-811.edi', 'accepted']]);
    expect(before.acks).toBe(1);

    const second = await restart(first, dataDir);
    // Still unmovable: the stored row answers, nothing is written.
    expect(await poll(second)).toEqual([]);
    expect(await written(second)).toEqual(before);

    rmSync(join(folder, 'archive'));
    expect((await poll(second)).map((r) => [r.file, r.moved])).toEqual([['po-811.edi', 'archive']]);
    expect(readdirSync(join(folder, 'archive'))).toEqual(['po-811.edi']);
    expect(readdirSync(folder).sort()).toEqual(['archive']);
    expect(await written(second)).toEqual(before);
  });

  const refusedFiles = [
    {
      name: 'notes.txt',
      write: (path: string) => writeFileSync(path, 'not an interchange'),
      reason: /^The file is not an X12 interchange/,
    },
    {
      name: 'huge.edi',
      write: (path: string) => {
        writeFileSync(path, '');
        truncateSync(path, 3 * 1024 ** 3); // sparse: never read
      },
      reason:
        'The file is 3 GB, larger than the 16 MB a file may be; it goes to error/ unread. Ask the retailer to send it in smaller files.',
    },
  ];
  for (const file of refusedFiles) {
    it(`a refused file (${file.name}) goes to error/ with its stored reason, recorded once`, async () => {
      const { svc: first, dataDir, folder } = await firstRun();
      file.write(join(folder, file.name));
      block(dataDir, folder, 'error');
      expect(await poll(first)).toEqual([]);
      const before = await written(first);
      expect(before.interchanges).toEqual([[file.name, 'refused']]);
      expect(before.acks).toBe(0);

      const second = await restart(first, dataDir);
      expect(await poll(second)).toEqual([]);
      expect(await written(second)).toEqual(before);

      rmSync(join(folder, 'error'));
      const moved = await poll(second);
      expect(moved.map((r) => [r.file, r.moved])).toEqual([[file.name, 'error']]);
      // The stored reason, in the reason file too.
      expect(moved[0]!.reason).toMatch(file.reason);
      expect(moved[0]!.reason).toBe(
        file.name === 'huge.edi' ? file.reason : before.summaries[0]!.refused,
      );
      expect(readFileSync(join(folder, 'error', `${file.name}.reason.txt`), 'utf8')).toBe(
        `${moved[0]!.reason}\n`,
      );
      expect(await written(second)).toEqual(before);
    });
  }

  it('the same name with another text is a new file; the same file resent is only moved', async () => {
    const { svc: first, dataDir, folder } = await firstRun();
    writeFileSync(join(folder, 'po-821.edi'), goldenFor('850-two-orders.edi', 821));
    expect((await poll(first)).map((r) => r.moved)).toEqual(['archive']);
    const second = await restart(first, dataDir);

    // The retailer drops the very same file again under the same name: nothing is written.
    writeFileSync(join(folder, 'po-821.edi'), goldenFor('850-two-orders.edi', 821));
    expect((await poll(second)).map((r) => [r.file, r.moved])).toEqual([['po-821.edi', 'archive']]);
    expect(readdirSync(join(folder, 'archive')).sort()).toEqual(['1_po-821.edi', 'po-821.edi']);
    expect(await written(second)).toMatchObject({
      interchanges: [['po-821.edi', 'accepted']],
      acks: 1,
    });

    // Under another name it is taken in as a duplicate (same sender and ISA13), answered again.
    writeFileSync(join(folder, 'po-821-again.edi'), goldenFor('850-two-orders.edi', 821));
    // Under the same name with another text (a corrected file) it is a new file, taken in.
    writeFileSync(
      join(folder, 'po-821.edi'),
      goldenFor('850-two-orders.edi', 822, {
        '4500012345': '4500082245',
        '4500012346': '4500082246',
      }),
    );
    expect((await poll(second)).map((r) => [r.file, r.moved])).toEqual([
      ['po-821-again.edi', 'archive'],
      ['po-821.edi', 'archive'],
    ]);
    const after = await written(second);
    expect(after.interchanges).toEqual([
      ['po-821.edi', 'accepted'],
      ['po-821-again.edi', 'duplicate'],
      ['po-821.edi', 'accepted'],
    ]);
  });

  it('finds the stored rows through the index on (connection_id, file_name)', async () => {
    const { svc } = await firstRun();
    const db = svc.ctx.db;
    const query = polledRowsQuery(db, id('c', 1), 'po-1.edi', 'ISA*…').compile();
    let plan: string;
    if (engine === 'sqlite') {
      const { rows } = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
      );
      plan = rows.map((row) => row.detail).join('\n');
    } else {
      // The table is near empty here, where a scan is cheapest: the index must be usable.
      plan = await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
        );
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    }
    expect(plan).toContain('edi_interchanges_polled_file');
  });
});
