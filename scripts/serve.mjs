// `npm run serve -- [flags]`: the headless service, straight after `npm install`.
// Builds the UI when it is missing or older than its sources, then runs the service from source.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const builtIndex = 'out/renderer/index.html';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const uiStale =
  !existsSync(builtIndex) ||
  Math.max(newestMtime('src/renderer'), newestMtime('src/shared')) > statSync(builtIndex).mtimeMs;
if (uiStale) {
  console.error('building the UI (out/renderer)…');
  const build = spawnSync(
    'npx',
    ['vite', 'build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn'],
    {
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) console.error('the UI build failed; serving the API only');
}

const child = spawn(
  process.execPath,
  ['--import', 'tsx', 'src/main/service/cli.ts', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
