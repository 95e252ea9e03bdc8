import { resolve } from 'node:path';
import { SeedError } from '../seed';
import { SyncSetupError } from '../sync';
import { parseServiceFlags, UsageError } from './config';
import { plainHttpWarning } from './host-guard';
import { startService, startupNotices } from './server';

/** `npm run serve`: the headless service. Prints `listening on URL` once it can serve. */
async function main() {
  const options = parseServiceFlags(process.argv.slice(2), process.env, {
    dataDir: resolve('data'),
    uiDir: resolve('out/renderer'),
  });
  const starting = startService(options);
  let closing = false;
  const shutdown = (reason: string) => {
    if (closing) return;
    closing = true;
    console.log(`${reason}, closing`);
    // A start that fails is reported by main's catch; one that succeeds is closed first.
    starting.then(
      (service) =>
        service.close().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(error);
            process.exit(1);
          },
        ),
      () => undefined,
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM received'));
  process.on('SIGINT', () => shutdown('SIGINT received'));
  // Started by scripts/serve.mjs with an IPC channel: when that process is gone (even by
  // SIGKILL) the channel closes, and nothing is left listening.
  if (process.channel) process.on('disconnect', () => shutdown('parent process gone'));

  const service = await starting;
  if (closing) return;
  const warning = plainHttpWarning(options.host);
  if (warning) console.error(warning);
  for (const notice of await startupNotices(service.context)) console.log(notice);
  console.log(`listening on ${service.url}`);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof SeedError || error instanceof SyncSetupError)
    console.error(error.message);
  else console.error(`failed to start: ${(error as Error).message}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
