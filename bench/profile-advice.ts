/**
 * `npx tsx bench/profile-advice.ts [rounds]`: where the CPU of an inventory advice goes, against
 * the bare round, counted by Linux `perf` (CPU-time samples of every thread of the process,
 * kernel included), so the groups add up to the process's CPU time.
 *
 * The same setup as `npm run bench -- advice` (bench/run.ts): the real service over real HTTP,
 * 8 loopback partners, advices and bare rounds alternating after a warm-up. The script runs
 * itself again under `perf record` (with node's `--perf-basic-prof`, so JIT-compiled JavaScript
 * has names), notes the monotonic time window of every measured advice and bare round, and then
 * counts the samples that fall in each kind of window by what ran:
 *
 * - the kernel, by the work: SQLite's file writes and fsyncs, loopback TCP, page faults, …
 * - SQLite (better-sqlite3's native code), V8's garbage collector and compiler, JSON;
 * - JavaScript by its package (Fastify, undici, Kysely, …), node's own modules, and our folders;
 * - native helpers (buffers, V8 builtins) go to the JavaScript that called them.
 *
 * Needs `perf` (linux-perf) and permission to use it (root, or perf_event_paranoid <= 1).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { benchItems, ids } from './fixtures';
import { benchAuthorization, postJson, startBenchService } from './harness';
import { startReceivers } from './receivers';

const ITEMS = 1000;
const WARMUP = Number(process.env.PROFILE_WARMUP ?? 30);
/** CPU time per perf sample (cpu-clock period, ns). */
const PERIOD_NS = 100_000;

interface Window {
  kind: 'ours' | 'bare';
  startUs: number;
  endUs: number;
}
interface ChildResult {
  rounds: number;
  load: [number, number];
  windows: Window[];
  cpuMs: { ours: number; bare: number };
}

/** In the child (under perf): the measured loop, alternating, noting each window. */
async function child(resultPath: string, rounds: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'fi-profile-'));
  const receivers = await startReceivers(8);
  const clientAgent = new Agent();
  const bareAgent = new Agent();
  const service = await startBenchService(
    dataDir,
    receivers.list.map((r) => r.url),
  );
  try {
    const authorization = await benchAuthorization(clientAgent, service.url);
    const adviceUrl = `${service.url}/api/v1/inventory/brand/${ids.brand}/facility/${ids.facility}`;
    const body = JSON.stringify({ items: benchItems(ITEMS) });
    const advise = async () => {
      const response = await postJson(clientAgent, adviceUrl, body, { authorization });
      if (response.status !== 200) throw new Error(`advice: ${response.status}`);
    };
    for (let i = 0; i < WARMUP; i++) await advise();
    const bare = receivers.list.map((r) => ({ url: r.url, last: r.last! }));
    const bareRound = async () => {
      await Promise.all(
        bare.map(async ({ url, last }) => {
          const response = await request(url, {
            method: 'POST',
            dispatcher: bareAgent,
            headers: {
              'content-type': last.contentType,
              ...(last.idempotencyKey ? { 'idempotency-key': last.idempotencyKey } : {}),
            },
            body: last.body.toString('utf8'),
          });
          await response.body.text();
        }),
      );
    };
    for (let i = 0; i < WARMUP; i++) await bareRound();
    const windows: Window[] = [];
    const cpuMs = { ours: 0, bare: 0 };
    const nowUs = () => Number(process.hrtime.bigint() / 1000n); // CLOCK_MONOTONIC, as perf -k mono
    const measure = async (kind: Window['kind'], fn: () => Promise<void>) => {
      const cpu = process.cpuUsage();
      const startUs = nowUs();
      await fn();
      windows.push({ kind, startUs, endUs: nowUs() });
      const used = process.cpuUsage(cpu);
      cpuMs[kind] += (used.user + used.system) / 1000;
    };
    const loadBefore = loadavg()[0]!;
    for (let i = 0; i < rounds; i++) {
      await measure('ours', advise);
      await measure('bare', bareRound);
    }
    const result: ChildResult = { rounds, load: [loadBefore, loadavg()[0]!], windows, cpuMs };
    writeFileSync(resultPath, JSON.stringify(result));
  } finally {
    await service.close();
    await clientAgent.close();
    await bareAgent.close();
    await receivers.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Packages Fastify pulls in for routing, serialisation and its lifecycle. */
const FASTIFY_DEPS = new Set([
  'find-my-way',
  'avvio',
  'light-my-request',
  'fast-json-stringify',
  'secure-json-parse',
  'fast-querystring',
  'fast-content-type-parse',
  'rfdc',
  'toad-cache',
  'abstract-logging',
  'process-warning',
  'fast-decode-uri-component',
  'ret',
  'safe-regex2',
  'proxy-addr',
]);

/** The group of a JavaScript frame's script: a package, a node area, or our folder. */
function groupOfScript(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) {
    const name = pkg[1]!;
    if (name === 'fastify' || name.startsWith('@fastify/') || FASTIFY_DEPS.has(name)) {
      return 'JS Fastify (and its deps)';
    }
    if (name === 'pino' || name.startsWith('pino-')) return 'JS pino (logging)';
    return `JS ${name}`;
  }
  const internal = /^node:(?:internal\/)?(.*)$/.exec(url);
  if (internal) {
    const path = internal[1]!;
    if (path.startsWith('deps/undici')) return 'JS undici';
    if (/^_?http/.test(path)) return 'JS node http';
    if (/^(net|stream|streams\/|dns|socket|buffer|events|event_target|abort)/.test(path)) {
      return 'JS node net/streams/buffers/events';
    }
    if (/^(timers|async_hooks|process\/task_queues|process\/promises|priority_queue)/.test(path)) {
      return 'JS node timers/promises';
    }
    return 'JS node (other)';
  }
  const ours = /\/(src\/server\/[^/]+(?:\/transmission)?|src\/shared|bench)\//.exec(url);
  if (ours) return `JS ${ours[1]!}`;
  return `JS ${url}`;
}

interface Frame {
  sym: string;
  dso: string;
}

const isKernel = (f: Frame) => f.dso.includes('kernel');
/** A JIT-compiled JavaScript frame from the perf map: `JS:*name url:line:col`. */
const jsUrlOf = (f: Frame) => {
  if (!f.dso.includes('perf-') || !f.sym.startsWith('JS:')) return null;
  const match = /^JS:\S?\S* ?(\S*?)(?::\d+:\d+)?$/.exec(f.sym);
  return match?.[1] || null;
};
const isGc = (sym: string) =>
  /Heap::|Scavenger|MarkCompact|Sweeper|ConcurrentMarking|GCTracer|MinorMC|Evacuat|MemoryAllocator|GarbageCollect|MarkingVisitor|IncrementalMarking|ArrayBufferSweeper/.test(
    sym,
  );
const isCompiler = (sym: string) =>
  /compiler::|Compiler::|interpreter::|OptimizingCompile|Maglev|baseline::|Parser::|Scanner::/.test(
    sym,
  );

/** The kernel work a sample was doing, from its kernel frames and the first user frame. */
function kernelWork(stack: Frame[]): string {
  const syms = stack.filter(isKernel).map((f) => f.sym);
  const user = stack.find((f) => !isKernel(f));
  const has = (re: RegExp) => syms.some((s) => re.test(s));
  if (user?.dso.includes('better_sqlite3') || has(/fsync|ext4|jbd2/)) {
    return has(/fsync/) ? 'kernel: SQLite fsync' : 'kernel: SQLite file reads/writes';
  }
  if (has(/page_fault/)) return 'kernel: page faults (memory)';
  if (has(/tcp|sock|inet|skb|net_rx|loopback/)) return 'kernel: loopback TCP (send, receive)';
  if (has(/epoll/)) return 'kernel: epoll (event loop)';
  if (has(/futex/)) return 'kernel: futex (thread wake-ups)';
  if (has(/mmap|munmap|madvise|mprotect/)) return 'kernel: mmap/madvise (memory)';
  return `kernel: other (${syms.find((s) => s.startsWith('__x64_sys_')) ?? syms[0]})`;
}

/** The group of one sample (stack from the leaf to the root) of the main thread. */
function mainThreadGroup(stack: Frame[]): string {
  const leaf = stack[0]!;
  if (isKernel(leaf)) return kernelWork(stack);
  if (leaf.dso.includes('better_sqlite3')) return 'SQLite (better-sqlite3 native)';
  const url = jsUrlOf(leaf);
  if (url) return groupOfScript(url);
  // Native frames up to the first JavaScript one: V8's own work, or a helper JavaScript called.
  const firstJs = stack.findIndex((f) => jsUrlOf(f) !== null);
  const native = firstJs < 0 ? stack : stack.slice(0, firstJs);
  if (native.some((f) => isGc(f.sym))) return 'V8 garbage collector';
  if (native.some((f) => isCompiler(f.sym))) return 'V8 compiler (main thread)';
  if (native.some((f) => /Json(Parse|Stringif)|JsonParser|JsonStringifier/.test(f.sym))) {
    return 'JSON parse/stringify';
  }
  if (native.some((f) => f.dso.includes('better_sqlite3'))) return 'SQLite (better-sqlite3 native)';
  if (firstJs >= 0) return `${groupOfScript(jsUrlOf(stack[firstJs]!)!)} (native part)`;
  if (stack.some((f) => /uv__io_poll|uv_run/.test(f.sym))) return 'event loop (libuv, no JS)';
  return `other native (${leaf.sym.slice(0, 40)})`;
}

function otherThreadGroup(stack: Frame[]): string {
  const syms = stack.map((f) => f.sym);
  if (syms.some(isGc)) return 'other threads: V8 GC helpers';
  if (syms.some(isCompiler)) return 'other threads: V8 compiler';
  if (syms.some((s) => s.includes('uv__worker') || s.includes('worker('))) {
    return 'other threads: libuv pool';
  }
  if (isKernel(stack[0]!)) return `other threads: ${kernelWork(stack)}`;
  return 'other threads: other';
}

interface Tally {
  samples: Map<string, number>;
  functions: Map<string, number>;
}

async function analyse(perfData: string, result: ChildResult, mainTid: number) {
  const windows = [...result.windows].sort((a, b) => a.startUs - b.startUs);
  const tallies: Record<Window['kind'], Tally> = {
    ours: { samples: new Map(), functions: new Map() },
    bare: { samples: new Map(), functions: new Map() },
  };
  const windowOf = (us: number): Window | null => {
    let lo = 0;
    let hi = windows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const w = windows[mid]!;
      if (us < w.startUs) hi = mid - 1;
      else if (us > w.endUs) lo = mid + 1;
      else return w;
    }
    return null;
  };
  const script = spawn('perf', ['script', '-i', perfData, '-F', 'tid,time,ip,sym,dso'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const caller = process.env.PROFILE_CALLER ? new RegExp(process.env.PROFILE_CALLER) : null;
  let header: { tid: number; us: number } | null = null;
  let stack: Frame[] = [];
  const finish = () => {
    if (!header) return;
    const window = windowOf(header.us);
    if (window && stack.length > 0) {
      const tally = tallies[window.kind];
      const group = header.tid === mainTid ? mainThreadGroup(stack) : otherThreadGroup(stack);
      if (process.env.PROFILE_HALVES) {
        const half = windows.indexOf(window) < windows.length / 2 ? 'first' : 'second';
        const key = `${half} half: ${group}`;
        tally.samples.set(key, (tally.samples.get(key) ?? 0) + 1);
      }
      tally.samples.set(group, (tally.samples.get(group) ?? 0) + 1);
      const leaf = stack.find((f) => jsUrlOf(f)) ?? stack[0]!;
      // PROFILE_CALLER=<regex>: those groups by the nearest function of ours (src/) instead.
      const ours = caller?.test(group)
        ? stack.find((f) => /\/src\/server\/(?!db\/)/.test(jsUrlOf(f) ?? ''))
        : undefined;
      const fn = ours
        ? `${group} | called from | ${ours.sym.slice(0, 110)}`
        : `${group} | ${stack[0]!.sym.slice(0, 60)} | ${leaf.sym.slice(0, 90)}`;
      tally.functions.set(fn, (tally.functions.get(fn) ?? 0) + 1);
    }
    header = null;
    stack = [];
  };
  for await (const line of createInterface({ input: script.stdout })) {
    const head = /^\s*(\d+)\s+(\d+)\.(\d+):/.exec(line);
    if (head) {
      finish();
      header = {
        tid: Number(head[1]),
        us: Number(head[2]) * 1e6 + Number(head[3]!.padEnd(6, '0')),
      };
      continue;
    }
    const frame = /^\s*[0-9a-f]+ (.*) \((.*)\)$/.exec(line);
    if (frame) stack.push({ sym: frame[1]!, dso: frame[2]! });
  }
  finish();
  return tallies;
}

function report(result: ChildResult, tallies: Record<Window['kind'], Tally>) {
  const perRound = (samples: number) => (samples * PERIOD_NS) / 1e6 / result.rounds;
  const f = (ms: number) => ms.toFixed(3).padStart(9);
  const names = new Set([...tallies.ours.samples.keys(), ...tallies.bare.samples.keys()]);
  const rows = [...names]
    .map((name) => ({
      name,
      ours: perRound(tallies.ours.samples.get(name) ?? 0),
      bare: perRound(tallies.bare.samples.get(name) ?? 0),
    }))
    .sort((x, y) => y.ours - y.bare - (x.ours - x.bare));
  const [loadBefore, loadAfter] = result.load;
  console.log(
    `\n${result.rounds} advices and ${result.rounds} bare rounds, alternating; load ` +
      `${loadBefore.toFixed(1)} -> ${loadAfter.toFixed(1)}; ms of CPU per advice / per bare round`,
  );
  console.log(
    `process.cpuUsage():  ours ${f(result.cpuMs.ours / result.rounds)}   bare ` +
      `${f(result.cpuMs.bare / result.rounds)}   (${(result.cpuMs.ours / result.cpuMs.bare).toFixed(2)}x)`,
  );
  console.log(
    `\n${'perf samples by group'.padEnd(52)}${'ours'.padStart(9)}${'bare'.padStart(10)}${'diff'.padStart(10)}`,
  );
  const total = { ours: 0, bare: 0 };
  for (const row of rows) {
    total.ours += row.ours;
    total.bare += row.bare;
    if (Math.max(row.ours, row.bare) < 0.01) continue;
    console.log(
      `${row.name.slice(0, 51).padEnd(52)}${f(row.ours)} ${f(row.bare)} ${f(row.ours - row.bare)}`,
    );
  }
  const small = rows.filter((r) => Math.max(r.ours, r.bare) < 0.01);
  const sum = (key: 'ours' | 'bare') => small.reduce((s, r) => s + r[key], 0);
  console.log(
    `${`(${small.length} groups under 0.01 ms)`.padEnd(52)}${f(sum('ours'))} ${f(sum('bare'))} ${f(sum('ours') - sum('bare'))}`,
  );
  console.log(
    `${'total'.padEnd(52)}${f(total.ours)} ${f(total.bare)} ${f(total.ours - total.bare)}`,
  );
  // PROFILE_DETAIL=<regex>: only the entries of the groups it matches, more of them.
  const detail = process.env.PROFILE_DETAIL ? new RegExp(process.env.PROFILE_DETAIL) : null;
  console.log('\ntop of the advice: group | leaf symbol | nearest JavaScript (ms per advice)');
  const top = [...tallies.ours.functions.entries()]
    .filter(([name]) => !detail || detail.test(name.split(' | ')[0]!))
    .sort((a, b) => b[1] - a[1])
    .slice(0, detail ? 120 : 50);
  for (const [name, samples] of top) console.log(`${f(perRound(samples))}  ${name}`);
}

async function parent(rounds: number) {
  const dir = mkdtempSync(join(tmpdir(), 'fi-perf-'));
  const perfData = join(dir, 'perf.data');
  const resultPath = join(dir, 'windows.json');
  const self = fileURLToPath(import.meta.url);
  try {
    const record = spawnSync(
      'perf',
      [
        'record',
        '-k',
        'mono',
        '-e',
        'cpu-clock',
        '-c',
        String(PERIOD_NS),
        '-g',
        '-o',
        perfData,
        '--',
        process.execPath,
        '--perf-basic-prof',
        '--import',
        'tsx',
        self,
        '--child',
        resultPath,
        String(rounds),
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (record.status !== 0) throw new Error(`perf record exited with ${record.status}`);
    const result = JSON.parse(readFileSync(resultPath, 'utf8')) as ChildResult;
    const pid = Number(readFileSync(`${resultPath}.pid`, 'utf8'));
    report(result, await analyse(perfData, result, pid));
  } finally {
    // node --perf-basic-prof leaves its symbol map in /tmp.
    rmSync(join('/tmp', `perf-${readPidQuietly(`${resultPath}.pid`)}.map`), { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

function readPidQuietly(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return 'none';
  }
}

const args = process.argv.slice(2);
const main =
  args[0] === '--child'
    ? () => {
        writeFileSync(`${args[1]!}.pid`, String(process.pid));
        return child(args[1]!, Number(args[2] ?? 300));
      }
    : () => parent(Number(args[0] ?? 300));
main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
