import { resolve } from 'node:path';
import { SeedError } from '../domain/seed';
import { parseServiceFlags, UsageError } from './config';
import { startService, startupNotices } from './server';

/** `npm run serve`: the headless service. Prints `listening on URL` once it can serve. */
async function main() {
  const options = parseServiceFlags(process.argv.slice(2), process.env, {
    dataDir: resolve('data'),
    uiDir: resolve('out/renderer'),
  });
  const service = await startService(options);
  for (const notice of await startupNotices(service.context)) console.log(notice);
  console.log(`listening on ${service.url}`);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal} received, closing`);
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof SeedError) console.error(error.message);
  else console.error(`failed to start: ${(error as Error).message}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
