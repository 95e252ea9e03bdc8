// Finds Electron's executable without `require('electron')`, which tries to download a missing
// binary. Shared by scripts/start.mjs and the Electron e2e (e2e/electron.spec.ts).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

/** The directory of an installed package, or null. */
export function packageDir(name) {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

export function packageVersion(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
}

/**
 * Electron's executable when it is installed and runs, else null. This deliberately does not
 * `require('electron')`: when the binary is missing, that tries to download it.
 */
export function findElectron() {
  const dir = packageDir('electron');
  if (!dir) return null;
  const pathFile = join(dir, 'path.txt');
  const relativeExe = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  let exe;
  if (override) exe = join(override, relativeExe || 'electron');
  else if (relativeExe) exe = join(dir, 'dist', relativeExe);
  else return null;
  try {
    accessSync(exe, constants.X_OK);
  } catch {
    return null;
  }
  // It exists; check it actually runs here (libraries present, right architecture).
  const probe = spawnSync(exe, ['-e', 'process.stdout.write(process.versions.electron ?? "")'], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (probe.status !== 0 || !probe.stdout) return null;
  return { exe, version: probe.stdout.trim() || packageVersion(dir) };
}
