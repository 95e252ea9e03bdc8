import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** Makes temp dirs named `<prefix>-…` for a test file; each test's dirs are removed after it. */
export function tempDirsPerTest(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    dirs.push(dir);
    return dir;
  };
}
