import { sql } from 'kysely';
import { z } from 'zod';
import { UUID_TEXT } from '../../shared/ids';
import { BOL_MAX_FILE_BYTES } from '../../shared/orders';
import { pdfFramingProblem, type PdfChecker } from '../core/pdf-check';
import { sha256Of } from '../core/file-store';
import type { ServiceContext } from '../core/context';
import { DomainError, invalidRequest, notFound } from '../core/errors';
import { engineOf } from '../db/engine';
import { readStoredFile, storedFileSize, storeFile } from '../db/stored-files';
import { pdfChecker } from '../orders';
import type { Device } from './devices';

/** BOL PDFs travel content-addressed beside the mutations that name them (docs/sync.md). */
export const SHA256_PARAM = /^[0-9a-f]{64}$/;
export const fileBodySchema = z.strictObject({
  /** The order whose BOL version will name the file. */
  order_id: z.string().regex(UUID_TEXT),
  content_base64: z.string().min(1),
});
/** The BOL upload's own limit (10 MB) in base64, with room for the JSON around it. */
export const FILE_BODY_LIMIT = Math.ceil(BOL_MAX_FILE_BYTES / 3) * 4 + 64 * 1024;
/**
 * Per device: bytes uploaded in the last 24 hours that no BOL version on the central refers to
 * yet. A workstation uploads a batch's files just before pushing the mutations that name them
 * (at most PUSH_FILE_BYTES a batch), so its files stop counting a moment later; a device that
 * uploads files nothing ever names runs into the quota.
 */
export const UNREFERENCED_FILE_QUOTA_BYTES = 100 * 1024 * 1024;
const QUOTA_WINDOW_MS = 24 * 60 * 60 * 1000;

function requireDigest(sha256: string): void {
  if (!SHA256_PARAM.test(sha256)) throw invalidRequest('The file name must be a SHA-256 digest');
}

const decodedSize = (text: string) =>
  (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);

/** Whether the order may have this device's BOL: one of its facilities, or not on the central yet. */
async function requireOrderInScope(ctx: ServiceContext, device: Device, orderId: string) {
  const order = await ctx.db
    .selectFrom('orders')
    .select('facility_id')
    .where('id', '=', orderId)
    .executeTakeFirst();
  // An order this device created offline reaches the central with the push after its files.
  if (order && !device.facilityIds.includes(order.facility_id)) {
    throw notFound('Order not found');
  }
}

/**
 * Counts the file against the device's quota, in one transaction (parallel uploads each see the
 * others). A file it already uploaded counts once. The sizes are the uploads' own rows, so the
 * count is the same whichever store (data dir or `stored_files`) holds the bytes.
 */
async function reserveQuota(
  ctx: ServiceContext,
  device: Device,
  upload: { sha256: string; order_id: string; size: number },
): Promise<void> {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - QUOTA_WINDOW_MS).toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    // SQLite runs transactions one at a time on its one connection. PostgreSQL runs parallel
    // uploads on several (and several processes): the device's row lock queues them, so each
    // counts what the ones before it committed and 50 at once cannot overshoot the quota.
    if (engineOf(trx) === 'postgres') {
      await sql`SELECT 1 FROM devices WHERE id = ${device.id} FOR UPDATE`.execute(trx);
    }
    const { used } = await trx
      .selectFrom('sync_file_uploads as u')
      .select(sql<number>`coalesce(sum(u.size), 0)`.as('used'))
      .where('u.device_id', '=', device.id)
      .where('u.uploaded_at', '>', since)
      .where('u.sha256', '!=', upload.sha256)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('order_bol_versions as v')
              .select('v.id')
              .whereRef('v.sha256', '=', 'u.sha256'),
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    if (Number(used) + upload.size > UNREFERENCED_FILE_QUOTA_BYTES) {
      throw new DomainError(
        'rate_limited',
        'INVALID_REQUEST',
        `This device has uploaded ${UNREFERENCED_FILE_QUOTA_BYTES / 1024 / 1024} MB of files in the last 24 hours that no BOL refers to; push the changes that name them first`,
      );
    }
    await trx
      .insertInto('sync_file_uploads')
      .values({ device_id: device.id, ...upload, uploaded_at: now.toISOString() })
      .onConflict((oc) =>
        oc.columns(['device_id', 'sha256']).doUpdateSet({
          order_id: upload.order_id,
          uploaded_at: now.toISOString(),
        }),
      )
      .execute();
  });
}

/**
 * `PUT /api/sync/v1/files/:sha256` on the central: stores a BOL file named by its digest, once it
 * is shown to be a PDF within the BOL size limit, for an order of the device's facilities (or one
 * not on the central yet), within the device's quota.
 */
export async function receiveFile(
  ctx: ServiceContext,
  device: Device,
  sha256: string,
  body: unknown,
  checker: PdfChecker = pdfChecker(),
) {
  requireDigest(sha256);
  const parsed = fileBodySchema.safeParse(body);
  if (!parsed.success) throw invalidRequest('order_id and content_base64 are required');
  const { order_id, content_base64: text } = parsed.data;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw invalidRequest('content_base64 is not valid base64');
  }
  if (decodedSize(text) > BOL_MAX_FILE_BYTES) {
    throw new DomainError(
      'payload_too_large',
      'INVALID_REQUEST',
      `The file is larger than ${BOL_MAX_FILE_BYTES} bytes (10 MB), the BOL limit`,
    );
  }
  await requireOrderInScope(ctx, device, order_id);
  const bytes = Buffer.from(text, 'base64');
  if (sha256Of(bytes) !== sha256) throw invalidRequest('The content does not match its SHA-256');
  const framing = pdfFramingProblem(bytes);
  if (framing) throw invalidRequest(`The file is not a PDF: ${framing}`);
  await reserveQuota(ctx, device, { sha256, order_id, size: bytes.length });
  const verdict = await checker.check(bytes);
  if (!verdict.ok) {
    await ctx.db
      .deleteFrom('sync_file_uploads')
      .where('device_id', '=', device.id)
      .where('sha256', '=', sha256)
      .execute();
    throw invalidRequest(`The file is not a PDF: ${verdict.reason}`);
  }
  return storeFile(ctx, bytes);
}

/** `GET /api/sync/v1/files/:sha256`: only a BOL of an order in the device's facilities. */
export async function sendFile(ctx: ServiceContext, device: Device, sha256: string) {
  requireDigest(sha256);
  const row = await ctx.db
    .selectFrom('order_bol_versions as v')
    .innerJoin('orders as o', 'o.id', 'v.order_id')
    .select('v.sha256')
    .where('v.sha256', '=', sha256)
    .where('o.facility_id', 'in', device.facilityIds.length ? device.facilityIds : [''])
    .executeTakeFirst();
  if (!row) throw notFound('File not found');
  const bytes = await readStoredFile(ctx, sha256).catch(() => null);
  if (!bytes) throw notFound('File not found');
  return { content_base64: bytes.toString('base64') };
}

/** A BOL file a mutation names, with the order it belongs to. */
export interface MutationFile {
  sha256: string;
  orderId: string;
}

/** The BOL files one mutation (its args as stored JSON) refers to. */
export function filesOfMutation(args: string): MutationFile[] {
  if (!args.includes('"order_bol_versions"')) return [];
  const { changes } = JSON.parse(args) as {
    changes: { t: string; new?: { sha256?: unknown; order_id?: unknown } }[];
  };
  const files: MutationFile[] = [];
  for (const change of changes) {
    const { sha256, order_id: orderId } = change.new ?? {};
    if (
      change.t === 'order_bol_versions' &&
      typeof sha256 === 'string' &&
      typeof orderId === 'string'
    )
      files.push({ sha256, orderId });
  }
  return files;
}

/** Digests of the BOL versions this replica has rows for but not the file. */
export async function missingFiles(ctx: ServiceContext): Promise<string[]> {
  const rows = await ctx.db.selectFrom('order_bol_versions').select('sha256').distinct().execute();
  const missing: string[] = [];
  for (const { sha256 } of rows) {
    if (!SHA256_PARAM.test(sha256)) continue;
    if ((await storedFileSize(ctx, sha256)) === null) missing.push(sha256);
  }
  return missing;
}
