/**
 * Where polled inbound interchanges wait: a folder under the data dir, or a directory on an SFTP
 * server (./inbound-sftp.ts). The poller (./inbound-poller.ts) only lists, reads and moves
 * through this interface, so both take the same path into ingest and the same archive/error
 * layout. Any method may throw; the poller then leaves the rest of that source for the next pass.
 */
import { mkdir, open, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { InterchangeSource } from './tables';

/**
 * A file's text; or that it is larger than the cap (it is not read: a huge file never fills the
 * memory); or that it was gone by the time it was read (another reader took it).
 */
export type ReadResult = { text: string } | { tooLargeBytes: number } | { gone: true };

export interface InboundSource {
  /** What interchanges and log rows record as the source. */
  readonly kind: InterchangeSource;
  /** The settled files (not hidden, not being written), sorted, at most `limit`. */
  list(options: { now: number; settleMs: number; limit: number }): Promise<string[]>;
  read(name: string, maxBytes: number): Promise<ReadResult>;
  /** Moves `name` into `archive/` or `error/` (with `<name>.reason.txt` beside it for error/). */
  moveTo(sub: 'archive' | 'error', name: string, reason?: string): Promise<void>;
  /** Where a file is, for log rows: `file://…` or `sftp://user@host:port/…` (no secrets). */
  urlOf(name: string): string;
  close(): Promise<void>;
}

/** A folder on this machine (already resolved against the data dir). */
export function folderSource(directory: string): InboundSource {
  return {
    kind: 'file',
    async list({ now, settleMs, limit }) {
      let entries;
      try {
        entries = await readdir(directory, { withFileTypes: true });
      } catch (error) {
        // Said, not taken for an empty folder: a folder that went away (a moved share, a typo in
        // the settings) is the administrator's to fix, and the clerk sees why nothing comes in.
        throw new Error(
          codeOf(error) === 'ENOENT'
            ? `The folder ${directory} does not exist`
            : `The folder ${directory} cannot be read: ${(error as Error).message}`,
        );
      }
      const names: string[] = [];
      for (const entry of entries) {
        if (!entry.isFile() || entry.name.startsWith('.')) continue;
        const info = await stat(join(directory, entry.name)).catch(() => null);
        if (info && now - info.mtimeMs >= settleMs) names.push(entry.name);
        if (names.length >= limit) break;
      }
      return names.sort();
    },
    async read(name, maxBytes) {
      let handle;
      try {
        handle = await open(join(directory, name), 'r');
      } catch (error) {
        if (codeOf(error) === 'ENOENT') return { gone: true };
        throw error;
      }
      try {
        const { size } = await handle.stat();
        if (size > maxBytes) return { tooLargeBytes: size };
        return { text: await handle.readFile('utf8') };
      } finally {
        await handle.close();
      }
    },
    async moveTo(sub, name, reason) {
      const folder = join(directory, sub);
      await mkdir(folder, { recursive: true });
      let target = join(folder, basename(name));
      for (let n = 1; await exists(target); n++) target = join(folder, `${n}_${basename(name)}`);
      await rename(join(directory, name), target);
      if (reason !== undefined) await writeFile(`${target}.reason.txt`, `${reason}\n`);
    },
    urlOf: (name) => `file://${join(directory, name)}`,
    close: async () => {},
  };
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;
