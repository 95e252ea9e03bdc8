import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  callApi,
  DEVICES,
  eventually,
  removeTempDirs,
  RENO,
  signInAt,
  tempDataDir,
} from './helpers/cluster';
import {
  ackedSeqOf,
  editPo,
  exited,
  ordersOf,
  userIdsOf,
  ownMaxSeq,
  POLL_MS,
  poNumberIn,
  startCentralProcess,
  startWorkstationProcess,
  statusWhen,
  writeCentralSeed,
} from './helpers/process-cluster';
import { stopAllServiceProcesses, type ServiceProcess } from './helpers/service-process';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';
import { centralStore, type CentralStore } from './helpers/central-store';
import { describeEngines } from '../helpers/engines';

/** Reno orders a clerk may still edit (Open, Picking). */
const OPEN = 'PS-SUM-2611001';
const PICKING_A = 'PS-BRM-2611003';
const PICKING_B = 'PS-SUM-2611004';
const OPEN_ORDER_ID = '0d000000-0000-4000-8000-000000000001';
const W1 = DEVICES.w1.id;

/**
 * One central and two Reno workstations as real processes, each workstation behind its own TCP
 * proxy. The scenarios run in order on the same cluster; each one leaves it synced and healthy.
 */
describeEngines('sync between real processes: network cuts and kill -9', (engine) => {
  let seedFile: string;
  let central: ServiceProcess;
  let centralDir: string;
  /** The central's database, read while it runs (SQLite in centralDir, or PostgreSQL). */
  let store: CentralStore;
  let centralPort: number;
  let w1: ServiceProcess;
  let w2: ServiceProcess;
  let p1: TcpProxy;
  let p2: TcpProxy;
  let auth1: string;
  let auth2: string;

  /** w1 on its data dir again, with `env` (a crash point) or without. */
  async function startW1(env?: NodeJS.ProcessEnv) {
    w1 = await startWorkstationProcess({
      name: 'w1',
      device: DEVICES.w1,
      centralUrl: p1.url,
      dataDir: w1.dataDir,
      env,
    });
    auth1 = await signInAt(w1.url);
  }

  /** Nothing pending on w1, and the central holds w1's seqs 1..max, each exactly once. */
  async function expectW1Drained() {
    await statusWhen(w1.url, auth1, (s) => s.pending_mutations === 0, 'w1 pending 0');
    const max = ownMaxSeq(w1.dataDir, W1);
    expect(max).toBeGreaterThan(0);
    expect(await store.seqs(W1)).toEqual(
      Array.from({ length: max }, (_, i) => ({ seq: i + 1, n: 1 })),
    );
  }

  beforeAll(async () => {
    seedFile = writeCentralSeed();
    centralDir = tempDataDir('central');
    store = await centralStore(engine, centralDir);
    central = await startCentralProcess({ dataDir: centralDir, seedFile, args: store.args });
    centralPort = central.port;
    p1 = await startTcpProxy({ targetPort: centralPort });
    p2 = await startTcpProxy({ targetPort: centralPort });
    const dirs = { w1: tempDataDir('w1'), w2: tempDataDir('w2') };
    [w1, w2] = await Promise.all([
      startWorkstationProcess({
        name: 'w1',
        device: DEVICES.w1,
        centralUrl: p1.url,
        dataDir: dirs.w1,
      }),
      startWorkstationProcess({
        name: 'w2',
        device: DEVICES.w2,
        centralUrl: p2.url,
        dataDir: dirs.w2,
      }),
    ]);
    // A fresh workstation has no users until its first pull brought them.
    [auth1, auth2] = await Promise.all([
      eventually(() => signInAt(w1.url), POLL_MS, 'w1 sign-in'),
      eventually(() => signInAt(w2.url), POLL_MS, 'w2 sign-in'),
    ]);
  }, 60_000);

  afterAll(async () => {
    await stopAllServiceProcesses();
    await Promise.all([p1?.close(), p2?.close()]);
    await store?.drop();
    removeTempDirs();
  });

  it('cut and heal: edits wait offline, then reach the central and the other workstation', async () => {
    p1.setMode('drop');
    await editPo(w1.url, auth1, OPEN, 'PO-CUT-1');
    await editPo(w1.url, auth1, PICKING_A, 'PO-CUT-2');
    const offline = await statusWhen(w1.url, auth1, (s) => !s.online, 'w1 offline');
    expect(offline).toMatchObject({ role: 'workstation', online: false, pending_mutations: 2 });
    expect(await store.poNumber(OPEN)).toBe('BB4500157');

    p1.setMode('pass');
    const healed = await statusWhen(
      w1.url,
      auth1,
      (s) => s.pending_mutations === 0 && s.online,
      'w1 drained after heal',
    );
    expect(healed.conflicts).toBe(0);
    expect(await store.poNumber(OPEN)).toBe('PO-CUT-1');
    expect(await store.poNumber(PICKING_A)).toBe('PO-CUT-2');
    await eventually(
      () => poNumberIn(w2.dataDir, OPEN) === 'PO-CUT-1' && poNumberIn(w2.dataDir, PICKING_A),
      POLL_MS,
      'w2 to receive both edits',
    );
    expect(poNumberIn(w2.dataDir, PICKING_A)).toBe('PO-CUT-2');
    // w2 serves the pulled edit through its own API too.
    const read = await callApi(w2.url, auth2, 'GET', `/api/v1/orders/${OPEN_ORDER_ID}`);
    expect(read.status).toBe(200);
    expect(read.body.data.identifiers).toMatchObject({
      picksheet_code: OPEN,
      po_number: 'PO-CUT-1',
    });
  }, 60_000);

  it('an answer lost after the commit: the retry is a duplicate, applied once', async () => {
    // Offline first, so the first request after the switch is the push (not a pull).
    p1.setMode('drop');
    await editPo(w1.url, auth1, PICKING_B, 'PO-LOST-ANSWER');
    await statusWhen(w1.url, auth1, (s) => !s.online && s.pending_mutations === 1, 'w1 offline');
    p1.setMode({ dropAfterCommit: 'once' });
    await eventually(() => p1.stats.droppedAfterCommit === 1, POLL_MS, 'the dropped answer');
    await expectW1Drained();
    expect(await store.poNumber(PICKING_B)).toBe('PO-LOST-ANSWER');
    expect(await store.lastSeq(W1)).toBe(ownMaxSeq(w1.dataDir, W1));
  }, 60_000);

  it('w1 killed after the push answer, before storing it: the restart re-sends, applied once', async () => {
    await w1.stop();
    await startW1({ SYNC_CRASH_AT: 'after_push_answer' });
    await editPo(w1.url, auth1, OPEN, 'PO-AFTER-ANSWER');
    await exited(w1, 'w1 to kill itself after the push answer');
    // The central committed it and answered; w1 died before storing the answer.
    const seq = ownMaxSeq(w1.dataDir, W1);
    expect(await store.lastSeq(W1)).toBe(seq);
    expect(ackedSeqOf(w1.dataDir)).toBe(seq - 1);
    expect(await store.poNumber(OPEN)).toBe('PO-AFTER-ANSWER');
    await startW1();
    await expectW1Drained();
    expect(await store.poNumber(OPEN)).toBe('PO-AFTER-ANSWER');
  }, 60_000);

  it('w1 killed before the push: the restart pushes the kept mutation', async () => {
    await w1.stop();
    await startW1({ SYNC_CRASH_AT: 'before_push' });
    const seqBefore = await store.lastSeq(W1);
    await editPo(w1.url, auth1, PICKING_A, 'PO-BEFORE-PUSH');
    await exited(w1, 'w1 to kill itself before the push');
    expect(await store.lastSeq(W1)).toBe(seqBefore);
    expect(ownMaxSeq(w1.dataDir, W1)).toBe(seqBefore + 1);
    expect(ackedSeqOf(w1.dataDir)).toBe(seqBefore);
    expect(await store.poNumber(PICKING_A)).toBe('PO-CUT-2');
    await startW1();
    await expectW1Drained();
    expect(await store.poNumber(PICKING_A)).toBe('PO-BEFORE-PUSH');
  }, 60_000);

  it('central killed after its commit, before answering: the retry is skipped as a duplicate', async () => {
    await central.stop();
    // No --seed on these restarts: a re-seed would put the bundle's orders back.
    central = await startCentralProcess({
      dataDir: centralDir,
      port: centralPort,
      env: { SYNC_CRASH_AT: 'after_server_commit' },
      args: store.args,
    });
    await editPo(w1.url, auth1, PICKING_B, 'PO-CENTRAL-CRASH');
    await exited(central, 'the central to kill itself after the commit');
    const seq = ownMaxSeq(w1.dataDir, W1);
    expect(await store.lastSeq(W1)).toBe(seq);
    const before = await statusWhen(w1.url, auth1, (s) => !s.online, 'w1 offline');
    expect(before.pending_mutations).toBe(1);

    central = await startCentralProcess({
      dataDir: centralDir,
      port: centralPort,
      args: store.args,
    });
    await expectW1Drained();
    expect(await store.poNumber(PICKING_B)).toBe('PO-CENTRAL-CRASH');
    await eventually(
      () => poNumberIn(w2.dataDir, PICKING_B) === 'PO-CENTRAL-CRASH',
      POLL_MS,
      'w2 to receive the edit',
    );
  }, 60_000);

  it('central killed between two transactions of one push (120 edits): the retry applies the rest once', async () => {
    p1.setMode('drop');
    const orders = [OPEN, PICKING_A, PICKING_B];
    for (let i = 0; i < 120; i += 1) await editPo(w1.url, auth1, orders[i % 3]!, `PO-MID-${i}`);
    await statusWhen(w1.url, auth1, (s) => !s.online, 'w1 offline');
    const before = await store.lastSeq(W1);
    await central.stop();
    central = await startCentralProcess({
      dataDir: centralDir,
      port: centralPort,
      env: { SYNC_CRASH_AT: 'between_push_commits' },
      args: store.args,
    });
    p1.setMode('pass');
    if (engine === 'postgres') {
      // 50 mutations a transaction: the first one committed, then the process died.
      await exited(central, 'the central to kill itself between two commits');
      expect(await store.lastSeq(W1)).toBe(before + 50);
      central = await startCentralProcess({
        dataDir: centralDir,
        port: centralPort,
        args: store.args,
      });
    }
    // SQLite applies a push in one transaction: the crash point is never reached.
    await expectW1Drained();
    expect(await store.lastSeq(W1)).toBe(before + 120);
    expect(await store.poNumber(OPEN)).toBe('PO-MID-117');
    expect(await store.poNumber(PICKING_B)).toBe('PO-MID-119');
    await eventually(
      () => poNumberIn(w2.dataDir, PICKING_B) === 'PO-MID-119',
      POLL_MS,
      'w2 to receive the last edit',
    );
    await central.stop();
    central = await startCentralProcess({
      dataDir: centralDir,
      port: centralPort,
      args: store.args,
    });
  }, 90_000);

  it('central killed while a fresh workstation takes its pages: it converges after the restart', async () => {
    const dataDir = tempDataDir('w2-central-dies');
    // Slow pages, so the kill lands between two of them.
    p2.setMode({ delay: 150 });
    const pulling = await startWorkstationProcess({
      name: 'w2-central-dies',
      device: DEVICES.w2,
      centralUrl: p2.url,
      dataDir,
      env: { SYNC_PULL_LIMIT: '20' },
    });
    try {
      await eventually(
        () => {
          try {
            return ordersOf(dataDir, RENO).length > 0;
          } catch {
            return false; // no tables yet
          }
        },
        POLL_MS,
        'the first page',
      );
      await central.kill9();
      const partial = ordersOf(dataDir, RENO).length;
      p2.setMode('pass');
      central = await startCentralProcess({
        dataDir: centralDir,
        port: centralPort,
        args: store.args,
      });
      await eventually(
        async () =>
          JSON.stringify(ordersOf(dataDir, RENO)) === JSON.stringify(await store.orders(RENO)),
        POLL_MS,
        'the workstation to hold the central orders',
      );
      expect(partial).toBeGreaterThan(0);
    } finally {
      p2.setMode('pass');
      await pulling.stop();
    }
  }, 60_000);

  it('epoch reset: a new central database is refused until an admin accepts it; then w1 re-sends what it lost and converges', async () => {
    await editPo(w1.url, auth1, OPEN, 'PO-BEFORE-RESET');
    await expectW1Drained();
    expect(await store.poNumber(OPEN)).toBe('PO-BEFORE-RESET');

    // w1 stays cut until the new central is up, to see it start from the bundle alone.
    p1.setMode('drop');
    await central.stop();
    await store.reset();
    central = await startCentralProcess({
      dataDir: centralDir,
      seedFile,
      port: centralPort,
      args: store.args,
    });
    expect(await store.poNumber(OPEN)).toBe('BB4500157');
    expect(await store.lastSeq(W1)).toBe(0);
    p1.setMode('pass');

    // w1 pinned the old central (its epoch): it sends nothing to the new one and takes nothing
    // from it, and says why, until an admin of every facility on w1 accepts the new central.
    await statusWhen(
      w1.url,
      auth1,
      (s) =>
        s.last_error?.startsWith('The central service is not the one this workstation') ?? false,
      'w1 to refuse the new central',
    );
    // Several rounds (100 ms apart, backoff up to 400 ms) later, still nothing went up.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await store.lastSeq(W1)).toBe(0);
    expect(poNumberIn(w1.dataDir, OPEN)).toBe('PO-BEFORE-RESET');
    const accepted = await callApi(w1.url, auth1, 'POST', '/api/sync/v1/settings/accept-central');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    // Converged: w1's Reno orders are the central's, and the acknowledged edit the new central
    // never saw came back from w1's kept mutations.
    await eventually(
      async () => {
        const onCentral = await store.poNumber(OPEN);
        // The users too: orders keep their ids across the reset, but the new central's seed gave
        // its users new ids, which arrive with the reset page (every demo user works at Reno).
        const same =
          JSON.stringify(ordersOf(w1.dataDir, RENO)) === JSON.stringify(await store.orders(RENO)) &&
          JSON.stringify(userIdsOf(w1.dataDir)) === JSON.stringify(await store.userIds());
        if (onCentral === 'PO-BEFORE-RESET' && same) return true;
        // Thrown, so that a timeout says how far it got.
        throw new Error(
          `central has ${onCentral}, w1 has ${poNumberIn(w1.dataDir, OPEN)}, ` +
            `w1 equals the central: ${same}, central last_seq of w1: ${await store.lastSeq(W1)}`,
        );
      },
      POLL_MS,
      'w1 and the new central to converge with the edit made before the reset',
    );
    const renoOrders = await store.orders(RENO);
    expect(renoOrders.length).toBeGreaterThan(0);
    expect(ordersOf(w1.dataDir, RENO)).toEqual(renoOrders);
    // w1's old session names a user the new central does not have.
    auth1 = await eventually(() => signInAt(w1.url), POLL_MS, 'w1 sign-in after the reset');
    await expectW1Drained();
  }, 60_000);

  it('a fresh workstation killed between two pull pages goes on from the stored cursor', async () => {
    const dataDir = tempDataDir('w2-mid-pull');
    const dying = await startWorkstationProcess({
      name: 'w2-mid-pull',
      device: DEVICES.w2,
      centralUrl: p2.url,
      dataDir,
      env: { SYNC_CRASH_AT: 'mid_pull', SYNC_PULL_LIMIT: '40' },
    });
    await exited(dying, 'w2 killed after its first pull page');
    // The first page and its cursor were committed together; the rest is not there yet (the
    // seed is one central version, but the orders edited above have later ones).
    const partial = ordersOf(dataDir, RENO).length;
    expect(partial).toBeLessThan((await store.orders(RENO)).length);
    const resumed = await startWorkstationProcess({
      name: 'w2-resumed',
      device: DEVICES.w2,
      centralUrl: p2.url,
      dataDir,
    });
    try {
      await eventually(
        async () =>
          JSON.stringify(ordersOf(dataDir, RENO)) === JSON.stringify(await store.orders(RENO)),
        POLL_MS,
        'the resumed workstation to hold the central orders',
      );
    } finally {
      await resumed.stop();
    }
  }, 60_000);

  it('a fresh workstation signs in and reads orders with the central gone', async () => {
    await w2.stop();
    w2 = await startWorkstationProcess({
      name: 'w2-fresh',
      device: DEVICES.w2,
      centralUrl: p2.url,
      dataDir: tempDataDir('w2-fresh'),
    });
    const firstAuth = await eventually(() => signInAt(w2.url), POLL_MS, 'fresh w2 sign-in');
    await statusWhen(w2.url, firstAuth, (s) => s.last_pull_at !== null, 'fresh w2 pulled');

    await central.kill9();
    // A new sign-in, checked against the password hashes that came down in the pull.
    const offlineAuth = await signInAt(w2.url);
    const read = await callApi(w2.url, offlineAuth, 'GET', `/api/v1/orders/${OPEN_ORDER_ID}`);
    expect(read.status).toBe(200);
    expect(read.body.data.identifiers).toMatchObject({ picksheet_code: OPEN });
    const status = await statusWhen(w2.url, offlineAuth, (s) => !s.online, 'w2 offline');
    expect(status).toMatchObject({ role: 'workstation', online: false, pending_mutations: 0 });
  }, 60_000);
});
