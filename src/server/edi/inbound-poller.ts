/**
 * Polled inbound folders: every enabled connection whose `order_documents.inbound` is
 * `{type: 'file', directory}` (relative to the data dir, like the file transport) has its files
 * taken in through the same path as POST /api/v1/edi/inbound. A file taken in (whatever its sets'
 * fate, duplicates too) moves to `archive/`; a refused one (not X12, another addressee, no group)
 * to `error/` with a `.reason.txt` beside it. A database failure leaves the file for the next
 * pass. A pass never throws (the loop is the outbox's: passes never overlap).
 */
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { ServiceContext } from '../core/context';
import { DomainError } from '../core/errors';
import { startOutboxDrainer, type OutboxDrainer, type OutboxDrainerOptions } from '../inventory';
import { ingestInterchange } from './ingest';
import { orderDocumentSettingsOf } from './settings';

export interface InboundPollOptions {
  /** A file changed more recently than this is left for the next pass (a partner still writing). */
  settleMs: number;
}

const DEFAULT_POLL: InboundPollOptions = { settleMs: 2_000 };
/** Files one pass takes per folder, so one big drop does not hold the loop. */
const FILES_PER_PASS = 50;

export interface PolledFile {
  connectionId: string;
  file: string;
  moved: 'archive' | 'error' | null;
  reason: string | null;
}

export async function pollInboundFolders(
  ctx: ServiceContext,
  options: InboundPollOptions = DEFAULT_POLL,
): Promise<PolledFile[]> {
  const connections = await ctx.db
    .selectFrom('connections')
    .where('enabled', '=', 1)
    .where('order_documents_json', 'is not', null)
    .select(['id', 'order_documents_json'])
    .orderBy('id')
    .execute();
  const results: PolledFile[] = [];
  for (const connection of connections) {
    const inbound = orderDocumentSettingsOf(connection.order_documents_json)?.inbound;
    if (inbound?.type !== 'file') continue;
    const directory = resolve(ctx.dataDir, inbound.directory);
    for (const name of await filesToTake(directory, options, ctx.clock.now().getTime())) {
      results.push(await takeFile(ctx, connection.id, directory, name));
    }
  }
  return results;
}

async function filesToTake(directory: string, options: InboundPollOptions, now: number) {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return []; // not there (yet): nothing to take
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue;
    const info = await stat(join(directory, entry.name)).catch(() => null);
    if (info && now - info.mtimeMs >= options.settleMs) names.push(entry.name);
    if (names.length >= FILES_PER_PASS) break;
  }
  return names.sort();
}

async function takeFile(
  ctx: ServiceContext,
  connectionId: string,
  directory: string,
  name: string,
): Promise<PolledFile> {
  const path = join(directory, name);
  try {
    const text = await readFile(path, 'utf8');
    await ingestInterchange(
      ctx,
      {
        text,
        source: 'file',
        fileName: name,
        userId: null,
        requestUrl: `file://${path}`,
        // A refused file is recorded for this folder's connection (the EDI inbox lists it).
        knownConnectionId: connectionId,
      },
      async (connection) => connection.id === connectionId,
    );
    await moveTo(directory, 'archive', name);
    return { connectionId, file: name, moved: 'archive', reason: null };
  } catch (error) {
    if (!(error instanceof DomainError)) {
      // The database or the disk: the file stays and is tried again next pass.
      console.error(`inbound file ${path} not taken: ${(error as Error).message ?? error}`);
      return { connectionId, file: name, moved: null, reason: (error as Error).message ?? null };
    }
    try {
      const target = await moveTo(directory, 'error', name);
      await writeFile(`${target}.reason.txt`, `${error.message}\n`);
    } catch (moveError) {
      console.error(`inbound file ${path} could not be moved: ${(moveError as Error).message}`);
      return { connectionId, file: name, moved: null, reason: error.message };
    }
    return { connectionId, file: name, moved: 'error', reason: error.message };
  }
}

/** Moves `name` into `directory/sub/`, never over an earlier file of the same name. */
async function moveTo(directory: string, sub: string, name: string): Promise<string> {
  const folder = join(directory, sub);
  await mkdir(folder, { recursive: true });
  let target = join(folder, basename(name));
  for (let n = 1; await exists(target); n++) target = join(folder, `${n}_${basename(name)}`);
  await rename(join(directory, name), target);
  return target;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** The polling loop, started next to the order-document drainer. */
export function startInboundPoller(
  ctx: ServiceContext,
  options: Partial<OutboxDrainerOptions> = {},
): OutboxDrainer {
  return startOutboxDrainer(() => pollInboundFolders(ctx), {
    onError: (error) =>
      console.error(`inbound folder poll failed: ${(error as Error).message ?? error}`),
    ...options,
  });
}
