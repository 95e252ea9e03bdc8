import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/** The project root (this file is test/sync/helpers/service-process.ts). */
const ROOT = resolve(import.meta.dirname, '../../..');
/**
 * From source rather than out/service/cli.js: the bundle goes stale whenever src/main changes,
 * and a stale bundle would test yesterday's code. tsx costs a second or two per start.
 */
// Strict: a rejection nobody handles (a background loop's) ends the process and fails the test.
const ENTRY = ['--unhandled-rejections=strict', '--import', 'tsx', 'src/server/http/cli.ts'];
const START_TIMEOUT_MS = 30_000;
const EXIT_TIMEOUT_MS = 10_000;
/** The service reads these (config.ts); a developer's shell must not leak into the tests. */
const SERVICE_ENV_NAMES = ['HOST', 'PORT', 'DATA_DIR', 'SEED', 'ALLOWED_HOST'];

export interface ServiceProcessOptions {
  /** Extra CLI flags (e.g. `['--seed', 'demo']`). `--port 0` is added unless `--port` is given. */
  args?: string[];
  /** Where the service keeps its database; survives kill9/stop/restart. */
  dataDir: string;
  /** Added to the environment (HOST, PORT, DATA_DIR, SEED, ALLOWED_HOST are removed first). */
  env?: NodeJS.ProcessEnv;
  /** Names the process in error messages and output. */
  name: string;
  /** How long to wait for `listening on URL`; 30 s by default. */
  startTimeoutMs?: number;
}

export interface ServiceProcess {
  readonly name: string;
  readonly dataDir: string;
  /** `http://127.0.0.1:<port>` of the current run. */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** False after kill9/stop or when the process died on its own. */
  readonly running: boolean;
  /** Everything the process printed, stdout and stderr interleaved, across restarts. */
  output(): string;
  /** Resolves with the first match in the current run's output; rejects on timeout or exit. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGKILL (a crash or power cut) and wait for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM (a graceful close), wait for the exit; SIGKILL after 10 s. */
  stop(): Promise<void>;
  /**
   * Stops the current run if it is still running (SIGTERM) and starts again with the same args
   * and data dir. A new port unless `--port` was given or `samePort` is set; a proxy in front
   * then needs `proxy.retarget(service.port)`.
   */
  restart(options?: { samePort?: boolean }): Promise<void>;
}

const live = new Set<ChildProcess>();

/** SIGKILLs every child still running: a test that failed halfway must leave no service behind. */
function killAllNow() {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
process.once('exit', killAllNow);

/** For afterAll: SIGKILLs every service process these helpers started and waits for the exits. */
export async function stopAllServiceProcesses(): Promise<void> {
  const children = [...live];
  killAllNow();
  await Promise.all(children.map((child) => exitOf(child)));
}

function isRunning(child: ChildProcess) {
  return child.exitCode === null && child.signalCode === null;
}

function exitOf(child: ChildProcess): Promise<void> {
  if (!isRunning(child)) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

function hasPortFlag(args: string[]) {
  return args.some((arg) => arg === '--port' || arg.startsWith('--port='));
}

/** Replaces the `--port` value (either spelling) with `port`. */
function withPort(args: string[], port: number): string[] {
  const result: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--port') {
      result.push('--port', String(port));
      i++;
    } else if (arg.startsWith('--port=')) result.push(`--port=${port}`);
    else result.push(arg);
  }
  return result;
}

/**
 * Starts the service as a real process (`node --import tsx src/server/http/cli.ts`) on
 * 127.0.0.1, resolving once it prints `listening on URL`. Rejects with its output when it exits
 * first or does not listen within the timeout (the process is then killed).
 */
export async function startServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const { dataDir, name } = options;
  const startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
  const args = [...(options.args ?? [])];
  if (!hasPortFlag(args)) args.push('--port', '0');
  let text = '';
  let runStart = 0;
  let child: ChildProcess;
  /** Settles once the current child exited and its pipes are drained. */
  let childClosed: Promise<void>;
  let url = '';

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const envName of SERVICE_ENV_NAMES) delete env[envName];
  Object.assign(env, options.env);

  function waitForOutput(pattern: RegExp, timeoutMs = START_TIMEOUT_MS) {
    const current = child;
    const from = runStart;
    // Without `g`/`y`, exec has no lastIndex state and returns the groups of the first match.
    const once = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
    return new Promise<RegExpMatchArray>((resolvePromise, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        current.stdout?.off('data', check);
        current.stderr?.off('data', check);
        outcome();
      };
      function check() {
        const match = once.exec(text.slice(from));
        if (match) settle(() => resolvePromise(match));
      }
      const timer = setTimeout(
        () =>
          settle(() =>
            reject(new Error(`${name} printed no ${pattern} within ${timeoutMs} ms\n${text}`)),
          ),
        timeoutMs,
      );
      current.stdout?.on('data', check);
      current.stderr?.on('data', check);
      check();
      // 'close' comes after the last output: one more look, then it never will print it.
      void childClosed.then(() => {
        check();
        settle(() =>
          reject(new Error(`${name} exited before printing ${pattern}\n${text.slice(from)}`)),
        );
      });
    });
  }

  async function launch(launchArgs: string[]) {
    runStart = text.length;
    child = spawn(process.execPath, [...ENTRY, '--data-dir', dataDir, ...launchArgs], {
      cwd: ROOT,
      env,
      // The IPC channel makes the service close itself when the test process dies, however it
      // dies (cli.ts listens for 'disconnect').
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    live.add(child);
    const started = child;
    started.once('exit', () => live.delete(started));
    childClosed = new Promise((done) => started.once('close', () => done()));
    // Neither the channel nor the child may keep a finished test run alive.
    started.channel?.unref();
    started.unref();
    started.stdout!.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    started.stderr!.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    try {
      const match = await waitForOutput(/listening on (http:\/\/\S+)/, startTimeoutMs);
      url = match[1]!;
    } catch (error) {
      started.kill('SIGKILL');
      await exitOf(started);
      throw error;
    }
  }

  async function terminate(signal: NodeJS.Signals) {
    const current = child;
    if (!isRunning(current)) return;
    const exited = exitOf(current);
    current.kill(signal);
    if (signal === 'SIGKILL') return exited;
    const timer = setTimeout(() => current.kill('SIGKILL'), EXIT_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  await launch(args);

  return {
    name,
    dataDir,
    get url() {
      return url;
    },
    get port() {
      return Number(new URL(url).port);
    },
    get pid() {
      return child.pid!;
    },
    get running() {
      return isRunning(child);
    },
    output: () => text,
    waitForOutput,
    kill9: () => terminate('SIGKILL'),
    stop: () => terminate('SIGTERM'),
    async restart(restartOptions = {}) {
      await terminate('SIGTERM');
      text += `--- ${name} restarted ---\n`;
      await launch(restartOptions.samePort ? withPort(args, Number(new URL(url).port)) : args);
    },
  };
}
