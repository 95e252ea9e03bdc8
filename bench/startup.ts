/**
 * Start-up time of the headless service: from spawn to the `listening on` line, for
 * `npm run serve` (what a user types; runs the built bundle) and the bare `node <bundle>`, with
 * the service run from source by tsx (the e2e web server, and `npm run serve` before the
 * bundle) for comparison. `--seed demo` is measured on a data dir that already holds the demo,
 * as every start after the first one sees it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE, ROOT, buildServiceBundle, bundleIsFresh } from '../scripts/service-bundle.mjs';
import { summarise, type LatencySummary } from './stats';

const ms = (value: number) => `${Math.round(value)} ms`;

const RUNS = 5;
const GOAL_MS = 1000;
const READY_TIMEOUT_MS = 30_000;

interface Variant {
  label: string;
  command: string;
  args: (dataDir: string) => string[];
}

const VARIANTS: Variant[] = [
  {
    label: 'npm run serve',
    command: 'npm',
    args: (d) => ['run', 'serve', '--', '--port', '0', '--data-dir', d],
  },
  {
    label: 'npm run serve --seed demo',
    command: 'npm',
    args: (d) => ['run', 'serve', '--', '--port', '0', '--seed', 'demo', '--data-dir', d],
  },
  {
    label: 'node <bundle>',
    command: process.execPath,
    args: (d) => [BUNDLE, '--port', '0', '--data-dir', d],
  },
  {
    label: 'node <bundle> --seed demo',
    command: process.execPath,
    args: (d) => [BUNDLE, '--port', '0', '--seed', 'demo', '--data-dir', d],
  },
  {
    label: 'node --import tsx cli.ts (from source)',
    command: process.execPath,
    args: (d) => ['--import', 'tsx', 'src/server/http/cli.ts', '--port', '0', '--data-dir', d],
  },
];

/** Spawns, times until `listening on`, then stops it with SIGTERM and waits for the exit. */
function timeToReady(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    for (const name of ['HOST', 'PORT', 'DATA_DIR', 'SEED', 'ALLOWED_HOST']) delete env[name];
    const started = performance.now();
    // Its own process group, to wait for everything it started to go before the next run.
    const child = spawn(command, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let readyMs: number | null = null;
    const timer = setTimeout(() => child.kill('SIGKILL'), READY_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (readyMs === null && /^listening on /m.test(out)) {
        readyMs = performance.now() - started;
        child.kill('SIGTERM'); // npm does not pass it on; scripts/serve.mjs notices (see there)
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('exit', () => {
      clearTimeout(timer);
      const ready = readyMs;
      if (ready === null)
        reject(new Error(`${command} ${args.join(' ')} never got ready:\n${out}`));
      else void groupGone(child.pid!).then(() => resolve(ready));
    });
  });
}

/** Resolves once the process group has no live member (at most 3 s: zombies nobody reaps stay). */
async function groupGone(pgid: number) {
  const deadline = performance.now() + 3000;
  while (performance.now() < deadline) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface StartupResults {
  runs: number;
  goalMs: number;
  variants: { label: string; summary: LatencySummary }[];
}

export async function measureStartup(runs = RUNS): Promise<StartupResults> {
  if (!bundleIsFresh()) await buildServiceBundle(); // not timed: once per source change
  const dataDir = mkdtempSync(join(tmpdir(), 'fi-bench-startup-'));
  try {
    // Each variant on its own data dir, created (and seeded) by one unmeasured start.
    const samples = new Map<string, number[]>(VARIANTS.map((v) => [v.label, []]));
    for (const [i, variant] of VARIANTS.entries()) {
      await timeToReady(variant.command, variant.args(join(dataDir, String(i))));
    }
    // Round-robin, so every variant sees the same machine.
    for (let run = 0; run < runs; run++) {
      for (const [i, variant] of VARIANTS.entries()) {
        const readyMs = await timeToReady(variant.command, variant.args(join(dataDir, String(i))));
        samples.get(variant.label)!.push(readyMs);
      }
    }
    return {
      runs,
      goalMs: GOAL_MS,
      variants: VARIANTS.map((v) => {
        const list = samples.get(v.label)!;
        return {
          label: v.label,
          summary: summarise(
            list,
            list.reduce((a, b) => a + b, 0),
          ),
        };
      }),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function reportStartup(results: StartupResults) {
  console.log(
    `\nStart-up, spawn to "listening on" (${results.runs} runs each, round-robin, after one unmeasured start)`,
  );
  console.log(`${''.padEnd(42)}${'median'.padStart(10)}${'min'.padStart(10)}${'max'.padStart(10)}`);
  for (const { label, summary } of results.variants) {
    console.log(
      `  ${label.padEnd(40)}${ms(summary.medianMs).padStart(10)}${ms(summary.minMs).padStart(10)}` +
        `${ms(summary.maxMs).padStart(10)}`,
    );
  }
  const npmServe = results.variants[0]!.summary.medianMs;
  console.log(
    `goal npm run serve < ${results.goalMs} ms: ${npmServe < results.goalMs ? 'MET' : 'NOT MET'} (${ms(npmServe)})`,
  );
}

/** Measures, prints, and writes bench/results/startup.json. */
export async function runStartupBench() {
  const results = await measureStartup();
  reportStartup(results);
  const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, 'startup.json');
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), ...results }, null, 2)}\n`,
  );
  console.log('\nwritten: bench/results/startup.json');
}

// `tsx bench/startup.ts` runs this bench alone; `npm run bench` runs it after the advice bench.
if (process.argv[1] && resolvePath(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runStartupBench().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
