/**
 * The simulated workstations of `npm run bench -- central` (bench/central.ts), run in a child
 * process of their own so that their CPU is counted apart from the central's (the bench reports
 * whether simulating 50 devices in one process distorts the figures). Each device talks the real
 * sync protocol over loopback HTTP (docs/sync.md): a session with its secret, then pushes of its
 * mutations in batches, back to back, while a second loop pulls to the end every
 * PULL_INTERVAL_MS. A device has converged when its pulls have brought every row the devices of
 * its facility pushed, each order with its last po_number.
 *
 * Paced (job.roundIntervalMs): each device runs the workstation's own round instead, push a batch,
 * pull to the end, wait, so the central sees the load that many workstations offer, not the most
 * it can take.
 *
 * Messages: the parent sends a DevicesJob; the child answers {ready} once every device is signed
 * in and has pulled to the end, waits for {go}, says {pushes: n} every 5 s while pushes are
 * answered, then answers {result: DevicesResult}.
 */

/** A central row as the workstation's capture copies it (all columns, SQLite values). */
export type Row = Record<string, unknown>;

export interface DevicesJob {
  url: string;
  devices: { id: string; secret: string; facilityId: string }[];
  /** Per facility: an Open order there and one of its lines, copied for the created orders. */
  templates: Record<string, { order: Row; item: Row }>;
  /** The user recorded on activity rows (the demo user). */
  userId: string;
  mutationsPerDevice: number;
  batch: number;
  pullIntervalMs: number;
  /**
   * Paced: each device runs the workstation's sync round instead (sync/client.ts): push one batch,
   * pull to the end, wait `roundIntervalMs`, again, starting at a random offset within the first
   * interval (workstations are not in step). Unset: pushes back to back while pulling every
   * `pullIntervalMs` (saturation).
   */
  roundIntervalMs?: number;
  timeoutMs: number;
}

export interface DevicesResult {
  /** Each push's round trip, ms. */
  pushMs: number[];
  /** The longest push: which device (index), when it started (ms after go), how long it took. */
  slowest: { device: number; startedMs: number; ms: number; nth: number };
  /** From go to the last push's answer. */
  pushWallMs: number;
  /** From go until every device has pulled everything of its facility. */
  convergedMs: number;
  mutations: number;
  applied: number;
  duplicates: number;
  rejected: number;
  conflicts: number;
  pulls: number;
  pulledRows: number;
  /** This process's CPU (user + system) from go to the end, ms. */
  cpuMs: number;
  /** Wall time from go to the end, ms. */
  wallMs: number;
}

type Message = { job: DevicesJob } | { go: true };

const HEADERS = { 'x-sync-protocol': '1', 'content-type': 'application/json' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const id = (prefix: string, device: number, n: number) =>
  `${prefix}${String(device).padStart(2, '0')}0000-0000-4000-8000-${String(n).padStart(12, '0')}`;

interface Change {
  t: string;
  op: 'I' | 'U';
  k: unknown[];
  old?: Row | null;
  new: Row;
  v?: number | null;
}
interface Mutation {
  seq: number;
  name: string;
  args: { changes: Change[] };
  at: string;
}

/** What the devices of one facility push, and so what each of them must pull back. */
interface Expected {
  /** Order id -> its last po_number. */
  orders: Map<string, string>;
  rows: Set<string>;
}

/**
 * A device's mutations, shaped like its capture writes them: 1 in 10 creates an order (the order
 * and two lines), 5 in 10 edit the po_number of the device's latest order (the row before and
 * after), 4 in 10 add an activity row (a label print) to it.
 */
function mutationsOf(job: DevicesJob, device: number, expected: Expected): Mutation[] {
  const template = job.templates[job.devices[device]!.facilityId]!;
  const mutations: Mutation[] = [];
  let order: Row | null = null;
  for (let i = 0; i < job.mutationsPerDevice; i++) {
    const at = new Date().toISOString();
    const changes: Change[] = [];
    let name: string;
    if (i % 10 === 0 || !order) {
      const n = i / 10;
      order = {
        ...template.order,
        id: id('5e', device, n),
        picksheet_code: `PS-BENCH-${device}-${n}`,
        po_number: `PO-BENCH-${device}-${n}`,
        status: 'Open',
        created_at: at,
        updated_at: at,
      };
      changes.push({ t: 'orders', op: 'I', k: [order.id], old: null, new: order, v: null });
      for (const line of [1, 2]) {
        const item = {
          ...template.item,
          id: id('5f', device, n * 2 + line),
          order_id: order.id,
          line_number: line,
        };
        changes.push({ t: 'order_items', op: 'I', k: [item.id], old: null, new: item, v: null });
        expected.rows.add(item.id);
      }
      name = 'CREATE_ORDER';
    } else if (i % 10 <= 5) {
      const before: Row = order;
      order = { ...before, po_number: `PO-BENCH-${device}-${i}-EDIT`, updated_at: at };
      changes.push({ t: 'orders', op: 'U', k: [order.id], old: before, new: order, v: null });
      name = 'EDIT_ORDER';
    } else {
      const activity = {
        id: id('5d', device, i),
        order_id: order.id,
        kind: 'LABEL_PRINT',
        action_type: null,
        metric: 'Carton Label Printed - GS1 Label',
        count: 1,
        carton_id: null,
        pallet_id: null,
        sscc: null,
        user_id: job.userId,
        created_at: at,
      };
      changes.push({ t: 'order_activity', op: 'I', k: [activity.id], old: null, new: activity });
      expected.rows.add(activity.id);
      name = 'LABEL_PRINT';
    }
    expected.orders.set(order.id as string, order.po_number as string);
    mutations.push({ seq: i + 1, name, args: { changes }, at });
  }
  return mutations;
}

async function call(url: string, init: RequestInit & { auth?: string }) {
  const { auth, ...rest } = init;
  const response = await fetch(url, {
    ...rest,
    headers: { ...HEADERS, ...(auth ? { authorization: auth } : {}) },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** One device's view of the central: its token, cursor and what its pulls brought. */
class Device {
  auth = '';
  cursor: string | undefined;
  orders = new Map<string, unknown>();
  rows = new Set<string>();
  pulls = 0;
  pulledRows = 0;
  constructor(
    readonly url: string,
    readonly spec: DevicesJob['devices'][number],
  ) {}

  async signIn() {
    const answer = await call(`${this.url}/api/sync/v1/session`, {
      method: 'POST',
      body: JSON.stringify({ device_id: this.spec.id, device_secret: this.spec.secret }),
    });
    this.auth = `Bearer ${answer.token as string}`;
  }

  /** Pulls pages until the central says there is no more. */
  async pullToEnd() {
    for (;;) {
      const query = this.cursor ? `?cursor=${encodeURIComponent(this.cursor)}` : '';
      const page = (await call(`${this.url}/api/sync/v1/pull${query}`, {
        auth: this.auth,
      })) as unknown as {
        cursor: string;
        more: boolean;
        changes: { t: string; k: unknown[]; row?: Row }[];
      };
      this.pulls += 1;
      this.pulledRows += page.changes.length;
      for (const change of page.changes) {
        if (!change.row) continue;
        const key = String(change.k[0]);
        if (change.t === 'orders') this.orders.set(key, change.row.po_number);
        else if (change.t === 'order_items' || change.t === 'order_activity') this.rows.add(key);
      }
      this.cursor = page.cursor;
      if (!page.more) return;
    }
  }

  has(expected: Expected): boolean {
    for (const [order, po] of expected.orders) if (this.orders.get(order) !== po) return false;
    for (const row of expected.rows) if (!this.rows.has(row)) return false;
    return true;
  }
}

async function run(job: DevicesJob, go: Promise<void>): Promise<DevicesResult> {
  const devices = job.devices.map((spec) => new Device(job.url, spec));
  const expected = new Map<string, Expected>();
  const queues = job.devices.map((spec, n) => {
    let facility = expected.get(spec.facilityId);
    if (!facility)
      expected.set(spec.facilityId, (facility = { orders: new Map(), rows: new Set() }));
    return mutationsOf(job, n, facility);
  });
  // Already synced workstations: signed in and pulled to the end before the clock starts.
  await Promise.all(
    devices.map(async (device) => {
      await device.signIn();
      await device.pullToEnd();
    }),
  );
  process.send!({ ready: true });
  await go;

  const cpu = process.cpuUsage();
  const started = performance.now();
  // Tells the parent the run moves (its watchdog), while pushes are answered.
  let answered = 0;
  let told = 0;
  const ticker = setInterval(() => {
    if (answered > told) process.send!({ pushes: (told = answered) });
  }, 5_000);
  const deadline = started + job.timeoutMs;
  const pushMs: number[] = [];
  const totals = { applied: 0, duplicates: 0, rejected: 0, conflicts: 0 };
  let pushEnd = started;
  let convergedAt = started;
  let failed: unknown = null;
  const slowest = { device: -1, startedMs: 0, ms: 0, nth: 0 };
  const pushAll = async (device: Device, queue: Mutation[], index: number) => {
    for (let from = 0; from < queue.length && !failed; from += job.batch) {
      if (job.roundIntervalMs !== undefined) {
        // A round pushes, pulls to the end and waits; the first starts at a random offset.
        if (from === 0) await sleep(Math.random() * job.roundIntervalMs);
        else {
          await device.pullToEnd();
          await sleep(job.roundIntervalMs);
        }
      }
      const t0 = performance.now();
      const answer = await call(`${job.url}/api/sync/v1/push`, {
        method: 'POST',
        auth: device.auth,
        body: JSON.stringify({ mutations: queue.slice(from, from + job.batch) }),
      });
      pushEnd = performance.now();
      pushMs.push(pushEnd - t0);
      answered += 1;
      if (pushEnd - t0 > slowest.ms) {
        Object.assign(slowest, {
          device: index,
          startedMs: t0 - started,
          ms: pushEnd - t0,
          nth: from / job.batch + 1,
        });
      }
      for (const key of Object.keys(totals) as (keyof typeof totals)[]) {
        totals[key] += Number(answer[key] ?? 0);
      }
    }
  };
  const pullUntilConverged = async (device: Device, pushing: Promise<void>) => {
    const mine = expected.get(device.spec.facilityId)!;
    // Paced, the device pulls in its rounds while it pushes, then keeps its rounds going.
    if (job.roundIntervalMs !== undefined) await pushing;
    const interval = job.roundIntervalMs ?? job.pullIntervalMs;
    for (;;) {
      await device.pullToEnd();
      if (device.has(mine)) break;
      if (failed) return;
      if (performance.now() > deadline) throw new Error(`${device.spec.id} did not converge`);
      await sleep(interval);
    }
    convergedAt = Math.max(convergedAt, performance.now());
  };
  const guarded = async (work: Promise<void>) => {
    try {
      await work;
    } catch (error) {
      failed ??= error;
    }
  };
  await Promise.all(
    devices.flatMap((device, n) => {
      const pushing = guarded(pushAll(device, queues[n]!, n));
      return [pushing, guarded(pullUntilConverged(device, pushing))];
    }),
  );
  clearInterval(ticker);
  if (failed) throw failed;
  const used = process.cpuUsage(cpu);
  return {
    pushMs,
    slowest,
    pushWallMs: pushEnd - started,
    convergedMs: convergedAt - started,
    mutations: queues.reduce((sum, queue) => sum + queue.length, 0),
    ...totals,
    pulls: devices.reduce((sum, d) => sum + d.pulls, 0),
    pulledRows: devices.reduce((sum, d) => sum + d.pulledRows, 0),
    cpuMs: (used.user + used.system) / 1000,
    wallMs: performance.now() - started,
  };
}

if (process.send) {
  let start: () => void = () => {};
  const go = new Promise<void>((resolve) => (start = resolve));
  process.on('message', (message: Message) => {
    if ('go' in message) return start();
    run(message.job, go).then(
      (result) => process.send!({ result }, () => process.exit(0)),
      (error: unknown) =>
        process.send!({ error: String((error as Error)?.stack ?? error) }, () => process.exit(1)),
    );
  });
}
