/**
 * A polled inbound folder with two central processes on one PostgreSQL database (issue 17):
 * each pass takes the source's lease first, so the two never read the same file; every
 * interchange is taken in once and every file ends in archive/ or error/ once.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { pollInboundFolders } from '../../src/server/edi';
import { id } from '../helpers/fixtures';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { goldenFor, polledInboundBundle } from '../edi/inbound-support';
import { until } from '../edi/support';
import { tmpDir } from '../inventory/support';

const postgres = inject('postgres');
const FILES = 60; // more than one pass takes (50): several rounds
/** The files' interchange control numbers. */
const CONTROLS = Array.from({ length: FILES }, (_, n) => 700 + n);

describe.skipIf(!postgres)('an inbound folder polled by two central processes', () => {
  const dataDir = tmpDir('pg-inbound');
  const folder = join(dataDir.path, 'inbound/r1');
  let partner: Receiver;
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
    a = await createTestService({
      engine: 'postgres',
      dataDir: dataDir.path,
      seed: polledInboundBundle(partner.url, { type: 'file', directory: 'inbound/r1' }),
    });
    // Another process on the same database, seeing the same folder.
    b = await createTestService({ postgresUrl: a.postgresUrl, dataDir: dataDir.path });
  });
  afterAll(async () => {
    for (const svc of [a, b]) {
      if (svc) await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 997 sends');
    }
    await b?.close();
    await a?.close();
    await partner?.close();
    dataDir.remove();
  });

  it('takes each of N files once, whichever process polls', async () => {
    mkdirSync(folder, { recursive: true });
    CONTROLS.forEach((control, n) => {
      const text = goldenFor('850-two-orders.edi', control, {
        '4500012345': String(4600000000 + 2 * n),
        '4500012346': String(4600000000 + 2 * n + 1),
      });
      writeFileSync(join(folder, `po-${control}.edi`), text);
    });
    writeFileSync(join(folder, 'notes.txt'), 'not an interchange');

    const errors = vi.spyOn(console, 'error');
    // Both processes poll at once, again and again, until the folder is empty.
    for (let round = 0; round < 20; round++) {
      const passes = await Promise.all(
        [a, b, a, b].map((svc) => pollInboundFolders(svc.ctx, { settleMs: 0 })),
      );
      // A pass that could not take the source's lease takes no file at all.
      expect(passes.flat().filter((file) => file.moved === null)).toEqual([]);
      if (readdirSync(folder).every((name) => name === 'archive' || name === 'error')) break;
    }

    // No pass met a file another had moved meanwhile.
    expect(errors.mock.calls.flat().join('\n')).not.toContain('inbound poll of');
    errors.mockRestore();
    expect(readdirSync(folder).sort()).toEqual(['archive', 'error']);
    expect(readdirSync(join(folder, 'archive')).sort()).toEqual(
      CONTROLS.map((control) => `po-${control}.edi`).sort(),
    );
    expect(readdirSync(join(folder, 'error')).sort()).toEqual([
      'notes.txt',
      'notes.txt.reason.txt',
    ]);
    const interchanges = await a.ctx.db
      .selectFrom('edi_interchanges')
      .select(['control_number', 'outcome'])
      .where('file_name', 'like', 'po-%')
      .execute();
    expect(interchanges.map((row) => Number(row.control_number)).sort((x, y) => x - y)).toEqual(
      CONTROLS,
    );
    expect(interchanges.filter((row) => row.outcome === 'duplicate')).toEqual([]);
    // Every lease was given back at the end of its pass.
    const leases = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM delivery_claims WHERE delivery_id LIKE 'inbound-source:%'`.execute(
      a.ctx.db,
    );
    expect(leases.rows[0]!.n).toBe(0);
  });
  it('leaves a source to the pass that holds its lease, and takes it over once that expired', async () => {
    writeFileSync(
      join(folder, 'po-800.edi'),
      goldenFor('850-two-orders.edi', 800, {
        '4500012345': '4700000000',
        '4500012346': '4700000001',
      }),
    );
    const key = `inbound-source:${id('c', 1)}`;
    // A pass of a process that died (or still runs) holds the lease.
    await sql`INSERT INTO delivery_claims (delivery_id, owner, expires_at)
      VALUES (${key}, 'another pass', clock_timestamp() + interval '1 minute')`.execute(a.ctx.db);
    expect(await pollInboundFolders(b.ctx, { settleMs: 0 })).toEqual([]);
    expect(readdirSync(folder)).toContain('po-800.edi');
    await sql`UPDATE delivery_claims SET expires_at = clock_timestamp() - interval '1 second'
      WHERE delivery_id = ${key}`.execute(a.ctx.db);
    const taken = await pollInboundFolders(b.ctx, { settleMs: 0 });
    expect(taken.map((file) => [file.file, file.moved])).toEqual([['po-800.edi', 'archive']]);
    const left = await sql`SELECT 1 FROM delivery_claims WHERE delivery_id = ${key}`.execute(
      a.ctx.db,
    );
    expect(left.rows).toEqual([]);
  });
});
