import { stat } from 'node:fs/promises';
import type SQLite from 'better-sqlite3';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../shared/sync';
import type { ServiceContext } from '../core/context';
import type { ChangeCapture } from './capture';
import { crashPoint } from './crash';
import { applyPullPage } from './local-apply';
import { documentPath, readDocument, sha256Of, storeDocument } from '../core/file-store';
import { serialsLeft } from '../fulfilment';
import { noteWriteFailure, storageStatusOf } from '../db/storage-status';
import { reportQuietly } from '../inventory';
import { filesOfMutation, missingFiles, type MutationFile } from './files';
import type { SsccSerialBlock } from './tables';
import type { PullPage, PushAnswer } from './protocol';
import type { SyncClient } from '../core/context';

export type { SyncClient } from '../core/context';

/** A fifth of a block (central.ts SSCC_BLOCK_SIZE): below it, the loop leases another. */
const SERIAL_TOP_UP_BELOW = 2_000;
/**
 * A push batch ends early once it names this many bytes of BOL files, so the files uploaded before
 * it stay within the central's quota of files no BOL refers to yet (files.ts, 100 MB).
 */
export const PUSH_FILE_BYTES = 40 * 1024 * 1024;
/** A push batch ends early at this size, well within the central's push body limit. */
export const PUSH_BODY_BYTES = 16 * 1024 * 1024;
/** A BOL file to upload, with its size. */
export type SizedFile = MutationFile & { size: number };

/**
 * How many of the push entries go in one push: all, unless their body or the BOL files they name
 * grow past the limits first (never fewer than one), and the files to upload before it.
 */
export function cutPushBatch(
  entries: string[],
  filesByEntry: SizedFile[][],
  limits = { bodyBytes: PUSH_BODY_BYTES, fileBytes: PUSH_FILE_BYTES },
): { count: number; files: MutationFile[] } {
  let bodyBytes = 0;
  let fileBytes = 0;
  const files: MutationFile[] = [];
  for (let i = 0; i < entries.length; i += 1) {
    const own = filesByEntry[i] ?? [];
    bodyBytes += Buffer.byteLength(entries[i]!);
    fileBytes += own.reduce((sum, f) => sum + f.size, 0);
    if (i > 0 && (bodyBytes > limits.bodyBytes || fileBytes > limits.fileBytes)) {
      return { count: i, files };
    }
    files.push(...own.map(({ sha256, orderId }) => ({ sha256, orderId })));
  }
  return { count: entries.length, files };
}

/** How long pushed mutations stay on the workstation (docs/sync.md, epoch resets). */
export const MUTATION_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface SyncClientOptions {
  centralUrl: string;
  deviceId: string;
  deviceSecret: string;
  /** Time between rounds while online and idle. */
  intervalMs: number;
  /** Longest wait between attempts while the central is unreachable. */
  maxBackoffMs: number;
  requestTimeoutMs: number;
  pushBatch: number;
  pullLimit: number;
  onError(error: unknown): void;
}

export const defaultSyncClientOptions = {
  intervalMs: 2_000,
  maxBackoffMs: 30_000,
  requestTimeoutMs: 20_000,
  pushBatch: 500,
  pullLimit: 5_000,
  onError: (error: unknown) => console.error(`sync failed: ${(error as Error).message ?? error}`),
};

/** The central answered with an error status; the round stops and is retried later. */
export class CentralError extends Error {
  constructor(
    readonly status: number,
    readonly body: { message?: string; error?: { code?: string; expected_seq?: number } },
  ) {
    super(`The central service answered ${status}: ${body.message ?? 'no message'}`);
  }
}

/**
 * The central answered a sync request with a redirect. Sync never follows one: the request carries
 * the device secret or token, and a 307 would re-post it to wherever the answer points.
 */
export class CentralRedirectError extends CentralError {
  constructor(status: number, location: string | null) {
    super(status, {});
    this.message = `The central service answered ${status} with a redirect${
      location ? ` to ${location.slice(0, 200)}` : ''
    }; sync never follows redirects: set the central's own URL in Settings`;
  }
}

/**
 * The central is not the one this workstation synced with: its epoch (made with its database)
 * differs from the one pinned by the first pull. Nothing is sent to it or taken from it until an
 * install admin accepts it (Settings → Sync with a central service; resetCentralIdentity).
 */
export class CentralIdentityError extends CentralError {
  constructor(
    readonly pinned: string,
    readonly offered: string,
  ) {
    super(409, {});
    this.message =
      'The central service is not the one this workstation synced with (its database was replaced, ' +
      'or the URL now leads elsewhere); nothing is sent until an admin accepts it under Settings → ' +
      'Sync with a central service';
  }
}

/** The central epoch a cursor names (`epoch:version:scope`); null before the first pull. */
export function epochOfCursor(cursor: string | null | undefined): string | null {
  return /^([0-9a-f-]{36}):/.exec(cursor ?? '')?.[1] ?? null;
}

/**
 * The workstation's sync loop, beside the outbox drainer and with the same rules: rounds never
 * overlap, a failing round is reported and retried with backoff, and all state lives in the
 * database (sync_state, sync_mutations), so it survives restarts. It always pushes before it
 * pulls; network I/O never happens inside a database transaction.
 */
export function startSyncClient(
  ctx: ServiceContext,
  sqlite: SQLite.Database,
  capture: ChangeCapture,
  options: Partial<SyncClientOptions> &
    Pick<SyncClientOptions, 'centralUrl' | 'deviceId' | 'deviceSecret'>,
): SyncClient {
  const settings: SyncClientOptions = { ...defaultSyncClientOptions, ...options };
  const base = settings.centralUrl.replace(/\/+$/, '');
  let online = false;
  let token: { value: string; until: number } | null = null;
  let running: Promise<void> | null = null;
  /** The round that follows the running one, for the syncNow calls made while it runs. */
  let following: Promise<void> | null = null;
  let stopped = false;
  let failures = 0;
  let lastError: unknown = null;
  const uploaded = new Set<string>();
  /** BOL files to look for: once after a start, and after pulls that bring BOL versions. */
  let filesToCheck = true;
  let timer: NodeJS.Timeout | null = null;
  let again = false;

  async function call(
    method: string,
    path: string,
    body?: string,
    retried = false,
  ): Promise<unknown> {
    const headers: Record<string, string> = {
      [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (!path.endsWith('/session')) headers.authorization = `Bearer ${await sessionToken()}`;
    let response: Response;
    try {
      response = await fetch(base + path, {
        method,
        headers,
        body,
        // Never follow: a redirect would carry the secret or the token to another server.
        redirect: 'manual',
        signal: AbortSignal.timeout(settings.requestTimeoutMs),
      });
    } catch (error) {
      // A keep-alive connection an outage cut fails at once; one fresh attempt tells that apart
      // from the central still being away.
      if (!retried && !(error instanceof Error && error.name === 'TimeoutError')) {
        return call(method, path, body, true);
      }
      online = false;
      throw error;
    }
    online = true;
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw new CentralRedirectError(response.status, response.headers.get('location'));
    }
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = { message: text.slice(0, 200) };
    }
    if (response.status === 401 && !retried && !path.endsWith('/session')) {
      token = null;
      return call(method, path, body, true);
    }
    if (!response.ok)
      throw new CentralError(response.status, (parsed ?? {}) as CentralError['body']);
    return parsed;
  }

  async function sessionToken(): Promise<string> {
    const now = Date.now();
    if (token && token.until > now) return token.value;
    const answer = (await call(
      'POST',
      '/api/sync/v1/session',
      JSON.stringify({ device_id: settings.deviceId, device_secret: settings.deviceSecret }),
    )) as { token: string; expires_in: number; epoch?: string };
    // An answer naming no epoch is not the pinned central either.
    requireSameCentral(answer.epoch ?? '');
    // Renewed five minutes early, so a round never runs into the expiry.
    token = { value: answer.token, until: now + (answer.expires_in - 300) * 1000 };
    return token.value;
  }

  /** The central's identity is pinned by the first pull: the epoch its cursor names. */
  function requireSameCentral(epoch: string): void {
    const state = sqlite.prepare(`SELECT cursor FROM sync_state WHERE id = 1`).get() as
      { cursor: string | null } | undefined;
    const pinned = epochOfCursor(state?.cursor);
    if (pinned && pinned !== epoch) {
      token = null;
      throw new CentralIdentityError(pinned, epoch);
    }
  }

  const ackedSeq = () =>
    (sqlite.prepare(`SELECT acked_seq FROM sync_state WHERE id = 1`).get() as { acked_seq: number })
      .acked_seq;

  async function push(): Promise<void> {
    for (;;) {
      capture.foldLeftovers();
      const rows = await ctx.db
        .selectFrom('sync_mutations')
        .select(['seq', 'name', 'args', 'base_version', 'at'])
        .where('client_id', '=', settings.deviceId)
        .where('seq', '>', ackedSeq())
        .orderBy('seq')
        .limit(settings.pushBatch)
        .execute();
      if (rows.length === 0) return;
      crashPoint('before_push');
      // The args are stored as JSON already: the body is assembled, not re-serialised.
      const entries = rows.map(
        (r) =>
          `{"seq":${r.seq},"name":${JSON.stringify(r.name)},"args":${r.args},"base_version":${
            r.base_version ?? 'null'
          },"at":${JSON.stringify(r.at)}}`,
      );
      const batch = cutPushBatch(
        entries,
        await pendingFiles(rows.map((r) => filesOfMutation(r.args))),
      );
      await uploadFiles(batch.files);
      const body = `{"mutations":[${entries.slice(0, batch.count).join(',')}]}`;
      let answer: PushAnswer;
      try {
        answer = (await call('POST', '/api/sync/v1/push', body)) as PushAnswer;
      } catch (error) {
        const expected = error instanceof CentralError ? error.body.error?.expected_seq : undefined;
        if (error instanceof CentralError && error.body.error?.code === 'SYNC_GAP' && expected) {
          // The central has less than we thought (it was restored): send again from there.
          await storeAcked(expected - 1);
          continue;
        }
        throw error;
      }
      crashPoint('after_push_answer');
      await storeAcked(answer.last_seq, new Date().toISOString());
      if (batch.count === rows.length && rows.length < settings.pushBatch) return;
    }
  }

  async function storeAcked(seq: number, at?: string): Promise<void> {
    await ctx.db
      .updateTable('sync_state')
      .set(at ? { acked_seq: seq, last_push_at: at } : { acked_seq: seq })
      .where('id', '=', 1)
      .execute();
  }

  async function pull(): Promise<{ files: boolean }> {
    let files = false;
    for (let pages = 0; ; pages += 1) {
      if (pages > 0) crashPoint('mid_pull');
      const state = await ctx.db
        .selectFrom('sync_state')
        .select('cursor')
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      const query = new URLSearchParams({ limit: String(settings.pullLimit) });
      if (state.cursor) query.set('cursor', state.cursor);
      const page = (await call('GET', `/api/sync/v1/pull?${query}`)) as PullPage;
      requireSameCentral(page.epoch);
      const acked = ackedSeq();
      if (page.last_seq !== acked) {
        // Below: the central lost mutations it had acknowledged (it was restored or reset), so
        // they are pending again and the next push re-sends them before anything is applied.
        // Above: its answer to a push was lost after it committed.
        await storeAcked(page.last_seq);
        if (page.last_seq < acked) {
          again = true;
          return { files };
        }
      }
      const outcome = await ctx.db
        .connection()
        .execute(async () =>
          applyPullPage(sqlite, capture, settings.deviceId, page, new Date().toISOString()),
        );
      if ('skipped' in outcome) {
        again = true; // local writes came in: push them first, then pull again
        return { files };
      }
      if (page.changes.some((c) => c.t === 'order_bol_versions')) files = true;
      if (!page.more) return { files };
    }
  }

  /** Leases SSCC serials for each GS1 prefix of the local brands that runs low (or has none). */
  async function topUpSerialBlocks(): Promise<void> {
    // Brands working at this device's facilities (the only brand_facilities rows it pulls).
    const brands = await ctx.db
      .selectFrom('brands as b')
      .innerJoin('brand_facilities as bf', 'bf.brand_id', 'b.id')
      .select('b.gs1_company_prefix')
      .distinct()
      .where('b.gs1_company_prefix', 'is not', null)
      .execute();
    for (const { gs1_company_prefix: prefix } of brands) {
      if (!prefix) continue;
      const left = await serialsLeft(ctx.db, prefix, settings.deviceId);
      if (left >= SERIAL_TOP_UP_BELOW) continue;
      const block = (await call(
        'POST',
        '/api/sync/v1/sscc-blocks',
        JSON.stringify({ company_prefix: prefix }),
      )) as SsccSerialBlock;
      // Stored at once (not captured: the table is the central's); the pull brings it again.
      await ctx.db
        .insertInto('sscc_serial_blocks')
        .values(block)
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }

  /** The BOL files each entry names that are still to upload, with their sizes here. */
  async function pendingFiles(filesByEntry: MutationFile[][]): Promise<SizedFile[][]> {
    return Promise.all(
      filesByEntry.map((files) =>
        Promise.all(
          files
            .filter((f) => !uploaded.has(f.sha256))
            .map(async (f) => ({
              ...f,
              size: (await stat(documentPath(ctx.dataDir, f.sha256)).catch(() => null))?.size ?? 0,
            })),
        ),
      ),
    );
  }

  /** Files go up before the mutations naming them; the central keeps them by digest. */
  async function uploadFiles(files: MutationFile[]): Promise<void> {
    for (const { sha256, orderId } of files) {
      if (uploaded.has(sha256)) continue;
      const bytes = await readDocument(ctx.dataDir, sha256).catch(() => null);
      if (!bytes) continue; // never stored here (a pulled row): nothing to send
      await call(
        'PUT',
        `/api/sync/v1/files/${sha256}`,
        JSON.stringify({ order_id: orderId, content_base64: bytes.toString('base64') }),
      );
      uploaded.add(sha256);
    }
  }

  /** BOL versions that came down without their file: fetch each once it is needed here. */
  async function fetchMissingFiles(): Promise<number> {
    let left = 0;
    for (const sha256 of await missingFiles(ctx)) {
      try {
        const answer = (await call('GET', `/api/sync/v1/files/${sha256}`)) as {
          content_base64: string;
        };
        const bytes = Buffer.from(answer.content_base64, 'base64');
        if (sha256Of(bytes) === sha256) await storeDocument(ctx.dataDir, bytes);
        else left += 1;
      } catch (error) {
        // The central may not have it yet (its workstation is offline); the next round tries again.
        if (!(error instanceof CentralError && error.status === 404)) throw error;
        left += 1;
      }
    }
    return left;
  }

  /** Pushed mutations are kept a while, to send again should the central be restored from a backup. */
  async function pruneOldMutations(): Promise<void> {
    const before = new Date(ctx.clock.now().getTime() - MUTATION_RETENTION_MS).toISOString();
    await ctx.db
      .deleteFrom('sync_mutations')
      .where('client_id', '=', settings.deviceId)
      .where('seq', '<=', ackedSeq())
      .where('at', '<', before)
      .execute();
  }

  const round = async () => {
    again = false;
    await push();
    await pruneOldMutations();
    const pulled = await pull();
    if (pulled.files) filesToCheck = true;
    if (filesToCheck) filesToCheck = (await fetchMissingFiles()) > 0;
    await topUpSerialBlocks();
  };

  /**
   * A round that starts after this call. A round already in flight may have pushed and pulled
   * before what the caller just changed (a clerk's edit, the device's facilities on the central),
   * so the calls made meanwhile share one round after it rather than join it.
   */
  const syncNow = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (!running) return startRound();
    following ??= running.then(() => {
      following = null;
      return stopped ? undefined : (running ?? startRound());
    });
    return following;
  };

  const startRound = (): Promise<void> => {
    // Started inside the chain, so a round that throws at once is caught like one that rejects:
    // this runs from a timer, where anything that escapes would end the process.
    running = Promise.resolve()
      .then(round)
      .then(
        () => {
          failures = 0;
          lastError = null;
        },
        (error: unknown) => {
          failures += 1;
          lastError = error;
          // Pulled rows are applied on the raw connection, past the driver that notes a full disk.
          noteWriteFailure(storageStatusOf(ctx.db), error);
          if (!stopped) reportQuietly(settings.onError, error);
        },
      )
      .finally(() => {
        running = null;
      });
    return running;
  };

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void syncNow().then(() => {
        const backoff = Math.min(settings.maxBackoffMs, settings.intervalMs * 2 ** failures);
        schedule(failures > 0 ? backoff : again ? 0 : settings.intervalMs);
      });
    }, ms);
    timer.unref();
  };
  schedule(0);

  return {
    get online() {
      return online;
    },
    get lastError() {
      return lastError;
    },
    syncNow,
    kick() {
      // Soon, but after the write's answer; a failing central keeps its backoff.
      if (failures === 0 && !running) schedule(50);
    },
    wantFiles() {
      filesToCheck = true;
      if (failures === 0 && !running) schedule(50);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
