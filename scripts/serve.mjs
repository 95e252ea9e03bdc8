// `npm run serve -- [flags]`: the headless service, straight after `npm install`.
// Builds the UI when it is missing or older than its sources, then runs the built service
// (out/service/cli.js, rebuilt when older than its sources; from source with tsx if that fails).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { BUNDLE, buildServiceBundle, bundleIsFresh, newestMtime } from './service-bundle.mjs';

const builtIndex = 'out/renderer/index.html';

const uiStale =
  !existsSync(builtIndex) ||
  Math.max(newestMtime('src/renderer'), newestMtime('src/shared')) > statSync(builtIndex).mtimeMs;
if (uiStale) {
  console.error('building the UI (out/renderer)…');
  const build = spawnSync(
    'npx',
    ['vite', 'build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn'],
    { stdio: 'inherit' },
  );
  if (build.status !== 0) console.error('the UI build failed; serving the API only');
}

let serviceArgs = [BUNDLE];
if (!bundleIsFresh()) {
  try {
    console.error('building the service (out/service/cli.js)…');
    await buildServiceBundle();
  } catch (error) {
    console.error(`the service build failed (${error.message}); running from source`);
    serviceArgs = ['--import', 'tsx', 'src/server/http/cli.ts'];
  }
}

// The IPC channel tells the service when this process is gone, however it went (cli.ts).
const child = spawn(process.execPath, [...serviceArgs, ...process.argv.slice(2)], {
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
});

let forwarded = false;
const forward = (signal) => {
  forwarded = true;
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => forward(signal));

// `npm run` puts npm and a shell between the user and this process, and neither passes on a
// SIGTERM: the shell dies and this process is handed to another parent. Treat that as SIGTERM.
const parentAtStart = process.ppid;
const parentWatch = setInterval(() => {
  if (process.ppid !== parentAtStart && !forwarded) forward('SIGTERM');
}, 200);
parentWatch.unref();

child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
