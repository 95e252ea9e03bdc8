import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningService } from '../../src/server/http/server';
import { startAlternatingProxy, type AlternatingProxy } from './helpers/alternating-proxy';
import { postgresCentralStore, type CentralStore } from './helpers/central-store';
import {
  api,
  DEVICES,
  removeTempDirs,
  signIn,
  startWorkstation,
  syncUntilQuiet,
  tempDataDir,
} from './helpers/cluster';
import { differences, renoStateOf } from './helpers/convergence-model';
import { startCentralProcess, writeCentralSeed } from './helpers/process-cluster';
import { signInDevice, syncCall } from './helpers/raw-push';
import { stopAllServiceProcesses } from './helpers/service-process';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';

/*
 * Issue 17 item 3: two central processes on one PostgreSQL database behind a round-robin proxy.
 * A workstation's requests alternate between them; each of its mutations is applied exactly once,
 * also when copies of one push reach both processes at the same moment, and pulls through either
 * process bring the same rows.
 */
const postgres = inject('postgres');
const W1 = DEVICES.w1.id;
const CODES = ['PS-SUM-2611001', 'PS-BRM-2611003', 'PS-SUM-2611004'];

describe.skipIf(!postgres)('two central processes on one PostgreSQL database', () => {
  let store: CentralStore;
  let proxy: AlternatingProxy;
  /** In front of the round-robin proxy, to cut w1 off while a test pushes its mutations. */
  let cut: TcpProxy;
  const workstations: RunningService[] = [];

  beforeAll(async () => {
    const dirs = [tempDataDir('central-a'), tempDataDir('central-b')];
    store = await postgresCentralStore(dirs[0]!);
    const a = await startCentralProcess({
      dataDir: dirs[0]!,
      seedFile: writeCentralSeed(),
      args: store.args,
    });
    // No secret is copied: on PostgreSQL the processes share the token secret through the
    // database (decision 0202), so B accepts the tokens A issued.
    const b = await startCentralProcess({ dataDir: dirs[1]!, args: store.args });
    proxy = await startAlternatingProxy([a.port, b.port]);
    cut = await startTcpProxy({ targetPort: Number(new URL(proxy.url).port) });
  }, 90_000);

  afterAll(async () => {
    for (const w of workstations.splice(0)) await w.close();
    await cut?.close();
    await proxy?.close();
    await stopAllServiceProcesses();
    await store?.drop();
    removeTempDirs();
  });

  const pushesServed = () =>
    proxy.served.map((requests) => requests.filter((r) => r === 'POST /api/sync/v1/push').length);

  it("a workstation's pushes alternate between the processes; each mutation is applied once; pulls through either converge", async () => {
    const w1 = await startWorkstation(cut.url, DEVICES.w1, { client: { intervalMs: 60_000 } });
    workstations.push(w1);
    await syncUntilQuiet(w1);
    const auth = await signIn(w1);
    const before = pushesServed();
    for (let i = 0; i < 12; i += 1) {
      const edit = await api(w1, auth, 'PUT', '/api/v1/orders', {
        picksheet_code: CODES[i % 3],
        po_number: `PO-TWO-${i}`,
      });
      expect(edit.status).toBe(200);
      // A round is a push and a pull: one more request every other round moves the next push
      // to the other process.
      if (i % 2 === 1) await fetch(`${proxy.url}/api/health`);
      await syncUntilQuiet(w1);
    }
    const after = pushesServed();
    // Both processes took some of the pushes.
    expect(after[0]! - before[0]!).toBeGreaterThan(0);
    expect(after[1]! - before[1]!).toBeGreaterThan(0);
    const last = await store.lastSeq(W1);
    expect(await store.seqs(W1)).toEqual(
      Array.from({ length: last }, (_, i) => ({ seq: i + 1, n: 1 })),
    );
    expect(await store.poNumber(CODES[2]!)).toBe('PO-TWO-11');

    // A second Reno workstation pulls through both processes (its pages alternate too).
    const w2 = await startWorkstation(proxy.url, DEVICES.w2, {
      client: { intervalMs: 60_000, pullLimit: 25 },
    });
    workstations.push(w2);
    await syncUntilQuiet(w2);
    await syncUntilQuiet(w1);
    const central = await store.renoState();
    expect(differences(await renoStateOf(w1.context.db), central)).toEqual([]);
    expect(differences(await renoStateOf(w2.context.db), central)).toEqual([]);
  }, 90_000);

  it('20 copies of one push of 60 mutations, sent at once to both processes: each applied exactly once', async () => {
    const w1 = workstations[0]!;
    const auth = await signIn(w1);
    // w1 would push its edits itself: the test sends them, in copies.
    cut.setMode('drop');
    for (let i = 0; i < 60; i += 1) {
      const edit = await api(w1, auth, 'PUT', '/api/v1/orders', {
        picksheet_code: CODES[i % 3],
        po_number: `PO-COPY-${i}`,
      });
      expect(edit.status).toBe(200);
    }
    const acked = await store.lastSeq(W1);
    const pending = await w1.context.db
      .selectFrom('sync_mutations')
      .select(['seq', 'name', 'args', 'base_version', 'at'])
      .where('client_id', '=', W1)
      .where('seq', '>', acked)
      .orderBy('seq')
      .execute();
    expect(pending).toHaveLength(60);
    // The body as the workstation's client assembles it (client.ts push()).
    const body = `{"mutations":[${pending
      .map(
        (r) =>
          `{"seq":${r.seq},"name":${JSON.stringify(r.name)},"args":${r.args},"base_version":${
            r.base_version ?? 'null'
          },"at":${JSON.stringify(r.at)}}`,
      )
      .join(',')}]}`;
    const device = await signInDevice(proxy.url, DEVICES.w1);
    const before = pushesServed();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        syncCall(proxy.url, '/api/sync/v1/push', { method: 'POST', auth: device, body }),
      ),
    );
    const after = pushesServed();
    expect(after[0]! - before[0]!).toBe(10);
    expect(after[1]! - before[1]!).toBe(10);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answers.reduce((sum, a) => sum + a.body.applied, 0)).toBe(60);
    expect(answers.reduce((sum, a) => sum + a.body.duplicates, 0)).toBe(19 * 60);
    for (const answer of answers) expect(answer.body.last_seq).toBe(acked + 60);
    expect(await store.seqs(W1)).toEqual(
      Array.from({ length: acked + 60 }, (_, i) => ({ seq: i + 1, n: 1 })),
    );
    expect(await store.poNumber(CODES[2]!)).toBe('PO-COPY-59');
    // The workstation's own push of the same mutations is all duplicates, and it converges.
    cut.setMode('pass');
    await syncUntilQuiet(w1);
    expect(await store.lastSeq(W1)).toBe(acked + 60);
    expect(differences(await renoStateOf(w1.context.db), await store.renoState())).toEqual([]);
  }, 90_000);
});
