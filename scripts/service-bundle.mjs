// The headless service as one built file, out/service/cli.js, so `npm run serve` starts without
// compiling TypeScript. Built with Vite (SSR build: Node target, packages external by default).
import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE = join(ROOT, 'out/service/cli.js');

/** What the bundle is made of: newer than all of these, it is fresh. */
const SOURCES = [
  'src/server',
  'src/shared',
  'resources',
  'package-lock.json',
  'scripts/service-bundle.mjs',
];

/**
 * Packages bundled in: pure JavaScript spread over many small files, whose loading (module
 * resolution, one read per file) is most of a cold start. Native, optional-native and
 * asset-serving packages (better-sqlite3, ssh2, @fastify/swagger-ui) stay in node_modules.
 */
const BUNDLED_PACKAGES = ['kysely', 'zod', 'jose', 'undici'];

export function newestMtime(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when out/service/cli.js exists and is newer than every source it is built from. */
export function bundleIsFresh() {
  const bundle = statSync(BUNDLE, { throwIfNoEntry: false });
  if (!bundle) return false;
  const newestSource = Math.max(...SOURCES.map((source) => newestMtime(join(ROOT, source))));
  return bundle.mtimeMs > newestSource;
}

/**
 * Builds out/service/cli.js. Each build writes its own folder and then renames the file into
 * place, so two starts building at once never run a half-written bundle.
 */
export async function buildServiceBundle() {
  const { build } = await import('vite');
  // Stamped with the time it started from, so a source saved during the build makes it stale.
  const startedAt = new Date();
  const scratch = join(ROOT, 'out/service', `.build-${process.pid}-${Date.now()}`);
  removeAbandonedBuilds();
  try {
    await build({
      configFile: false,
      root: ROOT,
      logLevel: 'warn',
      ssr: { noExternal: BUNDLED_PACKAGES },
      build: {
        ssr: join(ROOT, 'src/server/http/cli.ts'),
        outDir: scratch,
        emptyOutDir: true,
        target: 'node20',
        minify: false,
        sourcemap: false,
        copyPublicDir: false,
        reportCompressedSize: false,
        rollupOptions: { output: { entryFileNames: 'cli.js' } },
      },
    });
    const files = readdirSync(scratch);
    if (files.length !== 1 || files[0] !== 'cli.js') {
      throw new Error(`expected one file, cli.js; the build wrote ${files.join(', ')}`);
    }
    mkdirSync(dirname(BUNDLE), { recursive: true });
    utimesSync(join(scratch, 'cli.js'), startedAt, startedAt);
    renameSync(join(scratch, 'cli.js'), BUNDLE);
  } finally {
    if (existsSync(scratch)) rmSync(scratch, { recursive: true, force: true });
  }
}

/** Build folders left by a start that was killed mid-build (an hour old: no build takes that long). */
function removeAbandonedBuilds() {
  const dir = dirname(BUNDLE);
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const stat = entry.startsWith('.build-') && statSync(path, { throwIfNoEntry: false });
    if (stat && stat.mtimeMs < Date.now() - 3_600_000) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}
