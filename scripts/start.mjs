// `npm start [-- flags]`: the desktop app.
//
// Where Electron's binary can be had (it is downloaded by electron's postinstall, which fails on
// offline machines and is usually skipped in CI), this builds the app with electron-vite and
// launches Electron. Otherwise it says so in one line and starts the headless service instead,
// exactly as `npm run serve` does, seeding the demo workspace when ./data is new or empty.
//
// Native module note: node_modules/better-sqlite3 is compiled for Node's ABI, which the tests and
// `npm run serve` use, so it must not be rebuilt in place (`electron-builder install-app-deps`
// would do that and break them). Instead, a copy is built for Electron's ABI into
// build/electron-native/better_sqlite3.node (once per Electron/better-sqlite3 version), and its
// path is handed to the app as BETTER_SQLITE3_BINDING, which the database layer
// (src/server/db/database.ts) passes to better-sqlite3 as its `nativeBinding` option. Packaged apps
// do not need this: electron-builder rebuilds native dependencies for Electron (npmRebuild), and
// they ignore the variable (src/server/db/native-binding.ts).
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectron, packageDir, packageVersion } from './electron-binary.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// `--prepare-only` (used by e2e/electron.spec.ts): build the app and the Electron-ABI
// better-sqlite3, print the binding's path (or nothing), and exit without launching.
const prepareOnly = process.argv.includes('--prepare-only');
const extraArgs = process.argv.slice(2).filter((arg) => arg !== '--prepare-only');

function hasDisplay() {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

/** Runs a child with our stdio, forwarding SIGINT/SIGTERM to it, and exits with its status. */
function runForwardingSignals(command, args, options) {
  const child = spawn(command, args, { stdio: 'inherit', ...options });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    console.error(`could not run ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** The value of `--name VALUE` / `--name=VALUE` in the extra args, if given. */
function flagValue(name) {
  for (let i = 0; i < extraArgs.length; i += 1) {
    const arg = extraArgs[i];
    if (arg === `--${name}`) return extraArgs[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

function isEmptyOrMissingDir(dir) {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return !existsSync(dir);
  }
}

function startHeadless() {
  // The same data dir the service will use: flag, then DATA_DIR, then ./data (serve's default).
  const dataDir = resolve(root, flagValue('data-dir') ?? (process.env.DATA_DIR || 'data'));
  const seedGiven = flagValue('seed') !== undefined || Boolean(process.env.SEED);
  const seedArgs = !seedGiven && isEmptyOrMissingDir(dataDir) ? ['--seed', 'demo'] : [];
  runForwardingSignals(
    process.execPath,
    [join(root, 'scripts', 'serve.mjs'), ...seedArgs, ...extraArgs],
    {
      cwd: root,
    },
  );
}

/**
 * A better-sqlite3 binary for Electron's ABI (see the note at the top), built once into
 * build/electron-native from a copy of the installed package; null (after one line saying
 * why) when it cannot be built, e.g. offline without Electron's headers cached.
 */
function electronSqliteBinding(electron) {
  const sqliteDir = packageDir('better-sqlite3');
  const rebuildDir = packageDir('@electron/rebuild');
  if (!sqliteDir) return null;
  const outDir = join(root, 'build', 'electron-native');
  const binding = join(outDir, 'better_sqlite3.node');
  const stampFile = join(outDir, 'better_sqlite3.json');
  const stamp = JSON.stringify({
    electron: electron.version,
    betterSqlite3: packageVersion(sqliteDir),
    platform: process.platform,
    arch: process.arch,
  });
  if (existsSync(binding) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    return binding;
  }
  const logFile = join(outDir, 'rebuild.log');
  const fail = (why) => {
    console.error(
      `Could not build better-sqlite3 for Electron ${electron.version} (${why}; see ${relative(root, logFile)}); the database will not open in the desktop app until it is built.`,
    );
    return null;
  };
  if (!rebuildDir) return fail('@electron/rebuild is not installed');

  console.error(`building better-sqlite3 for Electron ${electron.version} (once)…`);
  mkdirSync(outDir, { recursive: true });
  // Stage a copy outside the project, with its own lockfile, so @electron/rebuild treats the
  // stage as the project root and can never touch node_modules/better-sqlite3.
  const stage = mkdtempSync(join(tmpdir(), 'electron-native-'));
  const log = openSync(logFile, 'w');
  try {
    const stagedSqlite = join(stage, 'node_modules', 'better-sqlite3');
    writeFileSync(
      join(stage, 'package.json'),
      JSON.stringify({
        name: 'electron-native-stage',
        private: true,
        dependencies: { 'better-sqlite3': '*' },
      }),
    );
    writeFileSync(join(stage, 'package-lock.json'), '{}');
    cpSync(sqliteDir, stagedSqlite, {
      recursive: true,
      filter: (source) => relative(sqliteDir, source).split(/[\\/]/)[0] !== 'build',
    });
    // Let @electron/rebuild try a prebuilt Electron binary (prebuild-install) before compiling.
    const prebuildInstall = packageDir('prebuild-install');
    if (prebuildInstall) {
      try {
        symlinkSync(prebuildInstall, join(stage, 'node_modules', 'prebuild-install'), 'junction');
      } catch {
        // compiling from source still works
      }
    }
    // @electron/rebuild wants Node >= 22; Electron itself is one (ELECTRON_RUN_AS_NODE).
    const nodeMajor = Number(process.versions.node.split('.')[0]);
    const runner = nodeMajor >= 22 ? process.execPath : electron.exe;
    const result = spawnSync(
      runner,
      [
        join(rebuildDir, 'lib', 'cli.js'),
        '--version',
        electron.version,
        '--module-dir',
        stage,
        '--only',
        'better-sqlite3',
        '--force',
      ],
      {
        cwd: stage,
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        stdio: ['ignore', log, log],
        timeout: 15 * 60_000,
      },
    );
    const built = join(stagedSqlite, 'build', 'Release', 'better_sqlite3.node');
    if (result.status !== 0 || !existsSync(built)) {
      return fail(
        result.error ? result.error.message : `@electron/rebuild exited with ${result.status}`,
      );
    }
    copyFileSync(built, binding);
    writeFileSync(stampFile, stamp);
    return binding;
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  } finally {
    closeSync(log);
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Builds main, preload and renderer into out/ with electron-vite. */
function buildApp() {
  const electronVite = packageDir('electron-vite');
  if (!electronVite) {
    console.error('electron-vite is not installed; run npm install');
    process.exit(1);
  }
  const build = spawnSync(
    process.execPath,
    [join(electronVite, 'bin', 'electron-vite.js'), 'build'],
    {
      cwd: root,
      // With --prepare-only, stdout carries only the binding's path.
      stdio: ['inherit', prepareOnly ? 2 : 1, 2],
    },
  );
  if (build.status !== 0) {
    console.error('electron-vite build failed');
    process.exit(build.status ?? 1);
  }
}

function startDesktop(electron) {
  buildApp();
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const binding = electronSqliteBinding(electron);
  if (binding) env.BETTER_SQLITE3_BINDING = binding;
  // `root` makes Electron load package.json's main (out/main/index.js).
  runForwardingSignals(electron.exe, [root, ...extraArgs], { cwd: root, env });
}

const electron = findElectron();
if (prepareOnly) {
  if (!electron) {
    console.error("Electron's binary is not available on this machine; nothing to prepare.");
    process.exit(1);
  }
  buildApp();
  const binding = electronSqliteBinding(electron);
  if (binding) console.log(binding);
  process.exit(binding ? 0 : 1);
} else if (!electron) {
  console.log(
    "Electron's binary is not available on this machine (offline?); starting the headless service instead.",
  );
  startHeadless();
} else if (!hasDisplay()) {
  console.log(
    'No display is available (DISPLAY/WAYLAND_DISPLAY unset); starting the headless service instead.',
  );
  startHeadless();
} else {
  startDesktop(electron);
}
