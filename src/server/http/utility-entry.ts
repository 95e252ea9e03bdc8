/**
 * Entry of the service when the desktop app hosts it: src/main/index.ts runs this file
 * (built to out/main/service.js) in an Electron utilityProcess, so the window never waits on
 * the database. It talks to its parent over `process.parentPort` only:
 *   child -> parent: { type: 'ready', url } once listening, or { type: 'error', message }
 *   parent -> child: { type: 'secrets-key', key } first (base64, or null without an OS keychain;
 *                    src/main/desktop-secrets.ts), the service starts once it has it;
 *                    { type: 'shutdown' } to close the service and exit.
 * Headless use (`npm run serve`) does not go through this file.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParentPort } from 'electron';
import { parseServiceFlags } from './config';
import { plainHttpWarning } from './host-guard';
import { startService, startupNotices, type RunningService } from './server';

/** Messages the service sends to the Electron main process. */
export type ServiceToParentMessage =
  { type: 'ready'; url: string } | { type: 'error'; message: string };

/** Messages the Electron main process sends to the service. */
export type ParentToServiceMessage =
  { type: 'secrets-key'; key: string | null } | { type: 'shutdown' };

/** `process.parentPort` exists only inside an Electron utilityProcess; elsewhere it is undefined. */
function getParentPort(): ParentPort | undefined {
  return (process as NodeJS.Process & { parentPort?: ParentPort | null }).parentPort ?? undefined;
}

/** The built UI next to this bundle: out/main/service.js -> out/renderer. */
function bundledUiDir(): string | null {
  const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../renderer');
  return existsSync(join(dir, 'index.html')) ? dir : null;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<void> {
  const parentPort = getParentPort();
  if (!parentPort) {
    console.error(
      'utility-entry must run in an Electron utilityProcess; use `npm run serve` instead',
    );
    process.exit(1);
  }
  const post = (message: ServiceToParentMessage): void => parentPort.postMessage(message);
  let gotSecretsKey: (key: Uint8Array | null) => void = () => undefined;
  const secretsKey = new Promise<Uint8Array | null>((resolveKey) => (gotSecretsKey = resolveKey));

  // Parse and start; a shutdown asked for meanwhile waits for the start to settle.
  const starting: Promise<RunningService | null> = (async () => {
    // The parent always passes --data-dir (the per-user app-data folder); the default is
    // only a fallback for running this entry by hand.
    // The desktop keeps its data in SQLite (DESIGN.md, Data layer): a DATABASE_URL that the
    // user's environment holds for other tools must not move the app to that server.
    const { DATABASE_URL: _url, POOL_SIZE: _pool, ...env } = process.env;
    const options = parseServiceFlags(process.argv.slice(2), env, {
      dataDir: resolve(process.cwd(), 'data'),
      uiDir: bundledUiDir(),
    });
    const running = await startService({ ...options, secretsKey: await secretsKey });
    const warning = plainHttpWarning(options.host);
    if (warning) console.error(warning);
    for (const notice of await startupNotices(running.context)) console.log(notice);
    return running;
  })().catch((error: unknown) => {
    const message = errorMessage(error);
    console.error(`service failed to start: ${message}`);
    post({ type: 'error', message });
    // Give the message a moment to reach the parent before exiting.
    setTimeout(() => process.exit(1), 250);
    return null;
  });

  let closing: Promise<void> | null = null;
  const shutdown = (): Promise<void> => {
    closing ??= (async () => {
      let exitCode = 0;
      try {
        await (await starting)?.close();
      } catch (error) {
        console.error(`service close failed: ${errorMessage(error)}`);
        exitCode = 1;
      }
      process.exit(exitCode);
    })();
    return closing;
  };

  // Messages are queued until a listener exists, and this one is registered synchronously,
  // so a shutdown sent during start-up is not lost.
  parentPort.on('message', (event: { data: unknown }) => {
    const data = event.data as Partial<ParentToServiceMessage> | null | undefined;
    if (data?.type === 'secrets-key') {
      gotSecretsKey(typeof data.key === 'string' ? Buffer.from(data.key, 'base64') : null);
    }
    if (data?.type === 'shutdown') {
      gotSecretsKey(null); // a start still waiting for its key goes on, then closes
      void shutdown();
    }
  });
  // Belt and braces: if the process is signalled directly, close cleanly too.
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());

  const service = await starting;
  if (service && !closing) post({ type: 'ready', url: service.url });
}

void main();
