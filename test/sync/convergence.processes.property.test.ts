import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { describeEngines } from '../helpers/engines';
import type { Engine } from '../../src/server/db/engine';
import { centralStore, type CentralStore } from './helpers/central-store';
import {
  callApi,
  DEVICES,
  eventually,
  removeTempDirs,
  signInAt,
  tempDataDir,
} from './helpers/cluster';
import {
  CODES,
  cityEdit,
  differences,
  ORDER_IDS,
  PACKED_ORDER,
  packOne,
  poEdit,
  rememberFinals,
  renoStateIn,
} from './helpers/convergence-model';
import {
  POLL_MS,
  readDb,
  seqsIn,
  startCentralProcess,
  startWorkstationProcess,
  syncStatusOf,
  writeCentralSeed,
} from './helpers/process-cluster';
import { stopAllServiceProcesses, type ServiceProcess } from './helpers/service-process';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';

/**
 * The second tier of the convergence property (the first is convergence.property.test.ts): a
 * central and two Reno workstations as real processes, each workstation behind its own proxy,
 * syncing every 100 ms on their own. Random edits, steps and packs on any of them, network cuts,
 * heals, answers lost after the central committed, and `kill -9` of a workstation (or the central)
 * at a random moment followed by a restart on the same data dir. Then the network heals and every
 * replica must hold the central's rows. Fixed seed (SYNC_SEED to try another), SYNC_PROCESS_RUNS
 * runs; no shrinking (each run costs seconds), fast-check prints the seed, path and command list.
 * SYNC_PROCESS_LOG=1 also prints each run's command list when it converged.
 */
const SEED = Number(process.env.SYNC_SEED ?? 20261124);
const RUNS = Number(process.env.SYNC_PROCESS_RUNS ?? 3);
/** Fewer runs with the central process on PostgreSQL (docs/sync.md). */
const PG_RUNS = Number(process.env.SYNC_PROCESS_RUNS ?? 2);
const SETTLE_MS = 30_000;

const DEVICE_LIST = [DEVICES.w1, DEVICES.w2];

interface Cluster {
  central: ServiceProcess;
  centralDir: string;
  /** The central's database (SQLite in centralDir, or PostgreSQL), read while it runs. */
  store: CentralStore;
  centralPort: number;
  ws: ServiceProcess[];
  proxies: TcpProxy[];
  auth: { central: string; ws: string[] };
  /** Central rows of orders that were Shipped or Cancelled when seen: they must never change. */
  finals: Map<string, string>;
  /** Requests left unanswered by a kill; awaited (and their failures ignored) before the end. */
  orphans: Promise<unknown>[];
}
type Model = Record<string, never>;

/** -1 is the central, 0 and 1 the workstations. */
const urlOf = (c: Cluster, at: number) => (at < 0 ? c.central.url : c.ws[at]!.url);
const authOf = (c: Cluster, at: number) => (at < 0 ? c.auth.central : c.auth.ws[at]!);
const nameOf = (at: number) => (at < 0 ? 'central' : `w${at + 1}`);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

const recordFinals = async (c: Cluster) => rememberFinals(c.finals, await c.store.finishedOrders());
const renoState = (dataDir: string) => readDb(dataDir, renoStateIn);

class EditPo implements fc.AsyncCommand<Model, Cluster> {
  constructor(
    readonly at: number,
    readonly code: string,
    readonly value: string,
  ) {}
  check = () => true;
  async run(_m: Model, c: Cluster) {
    const answer = await callApi(
      urlOf(c, this.at),
      authOf(c, this.at),
      'PUT',
      '/api/v1/orders',
      poEdit(this.code, this.value),
    );
    expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
  }
  toString = () => `EditPo(${nameOf(this.at)}, ${this.code}, ${this.value})`;
}

class EditCity implements fc.AsyncCommand<Model, Cluster> {
  constructor(
    readonly at: number,
    readonly code: string,
    readonly city: string,
  ) {}
  check = () => true;
  async run(_m: Model, c: Cluster) {
    const answer = await callApi(
      urlOf(c, this.at),
      authOf(c, this.at),
      'PUT',
      '/api/v1/orders',
      cityEdit(this.code, this.city),
    );
    expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
  }
  toString = () => `EditCity(${nameOf(this.at)}, ${this.code}, ${this.city})`;
}

class Step implements fc.AsyncCommand<Model, Cluster> {
  constructor(
    readonly at: number,
    readonly code: string,
    readonly action: 'cancel' | 'start-picking',
  ) {}
  check = () => true;
  async run(_m: Model, c: Cluster) {
    const path = `/api/v1/orders/${ORDER_IDS[this.code]}/${this.action}`;
    const answer = await callApi(urlOf(c, this.at), authOf(c, this.at), 'POST', path, {});
    expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
    // A cancel on the central is final from here on: nothing a device pushes may change it.
    if (this.at < 0) await recordFinals(c);
  }
  toString = () => `Step(${nameOf(this.at)}, ${this.code}, ${this.action})`;
}

class Pack implements fc.AsyncCommand<Model, Cluster> {
  constructor(readonly at: number) {}
  check = () => true;
  async run(_m: Model, c: Cluster) {
    const path = `/api/v1/orders/${PACKED_ORDER}/cartons`;
    const answer = await callApi(
      urlOf(c, this.at),
      authOf(c, this.at),
      'POST',
      path,
      packOne('SUM-STOVE-1'),
    );
    // 409: the order moved on, the item is fully packed, or a workstation has no SSCC block yet.
    expect([201, 409], JSON.stringify(answer.body)).toContain(answer.status);
  }
  toString = () => `Pack(${nameOf(this.at)})`;
}

class Network implements fc.AsyncCommand<Model, Cluster> {
  constructor(
    readonly at: number,
    readonly mode: 'Cut' | 'Heal' | 'LoseAnswer',
  ) {}
  check = () => true;
  async run(_m: Model, c: Cluster) {
    const proxy = c.proxies[this.at]!;
    if (this.mode === 'Cut') proxy.setMode('drop');
    else if (this.mode === 'Heal') proxy.setMode('pass');
    else proxy.setMode({ dropAfterCommit: 'once' });
  }
  toString = () => `${this.mode}(${nameOf(this.at)})`;
}

/** Lets the 100 ms sync loops run a few rounds between the other commands. */
class Pause implements fc.AsyncCommand<Model, Cluster> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run() {
    await sleep(this.ms);
  }
  toString = () => `Pause(${this.ms}ms)`;
}

/**
 * `kill -9` of a workstation `delayMs` after it was sent a PO edit (left unanswered: it may or
 * may not have committed) or, without the edit, at once. The loop runs every 100 ms and a write
 * kicks a round 50 ms later, so the delays land before, during and after the push and pull.
 * The restart uses the same data dir and proxy; its URL changes, hence the new sign-in.
 */
class Crash implements fc.AsyncCommand<Model, Cluster> {
  constructor(
    readonly at: number,
    readonly write: string | null,
    readonly delayMs: number,
  ) {}
  check = () => true;
  async run(_m: Model, c: Cluster) {
    const w = c.ws[this.at]!;
    if (this.write) {
      const request = callApi(
        w.url,
        c.auth.ws[this.at]!,
        'PUT',
        '/api/v1/orders',
        poEdit(this.write, 'PO-KILLED'),
      );
      c.orphans.push(request.catch(() => undefined));
    }
    await sleep(this.delayMs);
    await w.kill9();
    await w.restart();
    c.auth.ws[this.at] = await signInAt(w.url);
  }
  toString = () =>
    `Crash(${nameOf(this.at)}, ${this.write ? `after EditPo ${this.write}` : 'idle'}, +${this.delayMs}ms)`;
}

/**
 * `kill -9` of the central `delayMs` after a central PO edit was sent (or at once), then a
 * restart on the same port and data dir, without `--seed` (a re-seed would put the bundle's
 * orders back). Workstations' pushes in flight fail and are retried.
 */
class CrashCentral implements fc.AsyncCommand<Model, Cluster> {
  constructor(
    readonly write: string | null,
    readonly delayMs: number,
  ) {}
  check = () => true;
  async run(_m: Model, c: Cluster) {
    if (this.write) {
      const request = callApi(
        c.central.url,
        c.auth.central,
        'PUT',
        '/api/v1/orders',
        poEdit(this.write, 'PO-CENTRAL-KILLED'),
      );
      c.orphans.push(request.catch(() => undefined));
    }
    await sleep(this.delayMs);
    await c.central.kill9();
    c.central = await startCentralProcess({
      dataDir: c.centralDir,
      port: c.centralPort,
      args: c.store.args,
    });
    c.auth.central = await signInAt(c.central.url);
  }
  toString = () =>
    `CrashCentral(${this.write ? `after EditPo ${this.write}` : 'idle'}, +${this.delayMs}ms)`;
}

const who = fc.integer({ min: -1, max: 1 });
const ws = fc.integer({ min: 0, max: 1 });
const code = fc.constantFrom(...CODES);
const killDelay = fc.constantFrom(0, 20, 60, 120, 250);
const killedWrite = fc.option(code, { nil: null });
const commands = fc
  .commands(
    [
      fc
        .tuple(who, code, fc.constantFrom('A', 'B', 'C'))
        .map(([a, c, v]) => new EditPo(a, c, `PO-${v}`)),
      fc
        .tuple(who, code, fc.constantFrom('Reno', 'Sparks'))
        .map(([a, c, v]) => new EditCity(a, c, v)),
      fc
        .tuple(who, code, fc.constantFrom('cancel' as const, 'start-picking' as const))
        .map(([a, c, s]) => new Step(a, c, s)),
      who.map((a) => new Pack(a)),
      fc
        .tuple(ws, fc.constantFrom('Cut' as const, 'Heal' as const, 'LoseAnswer' as const))
        .map(([a, m]) => new Network(a, m)),
      fc.constantFrom(50, 150, 400).map((ms) => new Pause(ms)),
      // One slot for both kinds of kill, so that a kill is about one command in seven.
      fc.oneof(
        {
          weight: 2,
          arbitrary: fc.tuple(ws, killedWrite, killDelay).map(([a, w, d]) => new Crash(a, w, d)),
        },
        {
          weight: 1,
          arbitrary: fc.tuple(killedWrite, killDelay).map(([w, d]) => new CrashCentral(w, d)),
        },
      ),
    ],
    { maxCommands: 12, size: 'medium' },
  )
  // Each run costs seconds of process starts: make every run exercise something.
  .filter((cmds) => [...cmds].length >= 6);

const tail = (service: ServiceProcess) => service.output().slice(-1_500);

/**
 * Heals the network and waits until both workstations have nothing pending, reach the central,
 * and hold exactly the central's Reno rows (which, with nothing pending anywhere, also means a
 * pull came after the central's last write). Throws with the differences and statuses.
 */
async function settle(c: Cluster) {
  for (const proxy of c.proxies) proxy.setMode('pass');
  await Promise.all(c.orphans.splice(0));
  const until = Date.now() + SETTLE_MS;
  let report = '';
  for (;;) {
    try {
      const statuses = await Promise.all(c.ws.map((w, i) => syncStatusOf(w.url, c.auth.ws[i]!)));
      const expected = await c.store.renoState();
      const diffs = c.ws.map((w) => differences(renoState(w.dataDir), expected));
      if (
        statuses.every((s) => s.online && s.pending_mutations === 0) &&
        diffs.every((d) => !d.length)
      )
        return;
      report = c.ws
        .map((w, i) => `${w.name}: ${JSON.stringify(statuses[i])}\n  ${diffs[i]!.join('\n  ')}`)
        .join('\n');
    } catch (error) {
      report = String(error);
    }
    if (Date.now() > until) {
      throw new Error(
        `replicas did not converge within ${SETTLE_MS} ms:\n${report}\n` +
          c.ws.map((w) => `--- ${w.name} output ---\n${tail(w)}`).join('\n') +
          `\n--- central output ---\n${tail(c.central)}`,
      );
    }
    await sleep(200);
  }
}

async function startCluster(engine: Engine): Promise<Cluster> {
  const seedFile = writeCentralSeed();
  const centralDir = tempDataDir('central');
  const store = await centralStore(engine, centralDir);
  openStores.push(store);
  // The three processes start together (each start costs seconds of tsx and migrations); the
  // proxies point nowhere until the central listens, and the workstations retry until then.
  const proxies: TcpProxy[] = [];
  for (let i = 0; i < DEVICE_LIST.length; i += 1) {
    const proxy = await startTcpProxy({ targetPort: 1 });
    proxies.push(proxy);
    openProxies.push(proxy);
  }
  const [central, ...ws] = await Promise.all([
    startCentralProcess({ dataDir: centralDir, seedFile, args: store.args }).then((started) => {
      for (const proxy of proxies) proxy.retarget(started.port);
      return started;
    }),
    ...DEVICE_LIST.map((device, i) =>
      startWorkstationProcess({
        name: `w${i + 1}`,
        device,
        centralUrl: proxies[i]!.url,
        dataDir: tempDataDir(`w${i + 1}`),
      }),
    ),
  ]);
  // A fresh workstation has no users until its first pull brought them.
  const auth = {
    central: await signInAt(central!.url),
    ws: await Promise.all(
      ws.map((w) => eventually(() => signInAt(w.url), POLL_MS, `${w.name} sign-in`)),
    ),
  };
  const c: Cluster = {
    central: central!,
    centralDir,
    store,
    centralPort: central!.port,
    ws,
    proxies,
    auth,
    finals: new Map(),
    orphans: [],
  };
  await recordFinals(c);
  return c;
}

/** Proxies of the current run, closed with it even when the run failed while starting. */
const openProxies: TcpProxy[] = [];
/** PostgreSQL databases of the current run, dropped with it. */
const openStores: CentralStore[] = [];

/** Stops every process and proxy of the run (kill -9: nothing of them is kept) and its dirs. */
async function stopRun() {
  await stopAllServiceProcesses();
  await Promise.all(openProxies.splice(0).map((proxy) => proxy.close()));
  await Promise.all(openStores.splice(0).map((store) => store.drop()));
  removeTempDirs();
}

afterAll(stopRun);

describeEngines(
  'sync converges between real processes under kill -9 (fast-check, fixed seed)',
  (engine) => {
    it(`every replica holds the central's Reno rows, each seq applies once, finished orders never change (seed ${SEED})`, async () => {
      await fc.assert(
        fc.asyncProperty(commands, async (cmds) => {
          try {
            const c = await startCluster(engine);
            await fc.asyncModelRun(() => ({ model: {}, real: c }), cmds);
            await settle(c);
            if (process.env.SYNC_PROCESS_LOG) console.log(`converged after ${String(cmds)}`);

            // Each device's seqs reached the central exactly once, with none missing: the central
            // holds 1..max of what the device wrote (pushed mutations are kept 30 days).
            for (const [i, device] of DEVICE_LIST.entries()) {
              const own = seqsIn(c.ws[i]!.dataDir, device.id);
              const expected = own.map((_, n) => ({ seq: n + 1, n: 1 }));
              expect(own, `${c.ws[i]!.name}'s own seqs`).toEqual(expected);
              expect(
                await c.store.seqs(device.id),
                `${c.ws[i]!.name}'s seqs on the central`,
              ).toEqual(expected);
            }
            // A shipped or cancelled order wins: none changed after it was seen finished.
            const now = await c.store.finishedOrders();
            for (const [id, before] of c.finals) expect(now.get(id), `order ${id}`).toBe(before);
            // SSCCs come from leased blocks: packs on two replicas never clash on the central.
            const reasons = await c.store.conflictReasons();
            expect(reasons.filter((r) => r.includes('SSCC'))).toEqual([]);
          } finally {
            await stopRun();
          }
        }),
        {
          seed: SEED,
          numRuns: engine === 'postgres' ? PG_RUNS : RUNS,
          endOnFailure: true,
          verbose: true,
        },
      );
    }, 600_000);
  },
);
