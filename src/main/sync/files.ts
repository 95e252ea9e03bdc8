import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { documentPath, readDocument, sha256Of, storeDocument } from '../documents/store';
import type { ServiceContext } from '../domain/context';
import { invalidRequest, notFound } from '../domain/errors';
import type { Device } from './devices';

/** BOL PDFs travel content-addressed beside the mutations that name them (docs/sync.md). */
export const SHA256_PARAM = /^[0-9a-f]{64}$/;
export const fileBodySchema = z.strictObject({ content_base64: z.string().min(1) });
/** The BOL upload's own limit with room for base64. */
export const FILE_BODY_LIMIT = 32 * 1024 * 1024;

function requireDigest(sha256: string): void {
  if (!SHA256_PARAM.test(sha256)) throw invalidRequest('The file name must be a SHA-256 digest');
}

/** `PUT /api/sync/v1/files/:sha256` on the central: stores the bytes if they match their name. */
export async function receiveFile(ctx: ServiceContext, sha256: string, body: unknown) {
  requireDigest(sha256);
  const parsed = fileBodySchema.safeParse(body);
  if (!parsed.success) throw invalidRequest('content_base64 is required');
  const text = parsed.data.content_base64;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw invalidRequest('content_base64 is not valid base64');
  }
  const bytes = Buffer.from(text, 'base64');
  if (sha256Of(bytes) !== sha256) throw invalidRequest('The content does not match its SHA-256');
  return storeDocument(ctx.dataDir, bytes);
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
  const bytes = await readDocument(ctx.dataDir, sha256).catch(() => null);
  if (!bytes) throw notFound('File not found');
  return { content_base64: bytes.toString('base64') };
}

/** The BOL files a batch of mutations (their args as stored JSON) refers to. */
export function filesOfMutations(args: string[]): string[] {
  const digests = new Set<string>();
  for (const text of args) {
    if (!text.includes('"order_bol_versions"')) continue;
    const { changes } = JSON.parse(text) as {
      changes: { t: string; new?: { sha256?: unknown } }[];
    };
    for (const change of changes) {
      const digest = change.new?.sha256;
      if (change.t === 'order_bol_versions' && typeof digest === 'string') digests.add(digest);
    }
  }
  return [...digests];
}

/** Digests of the BOL versions this replica has rows for but not the file. */
export async function missingFiles(ctx: ServiceContext): Promise<string[]> {
  const rows = await ctx.db.selectFrom('order_bol_versions').select('sha256').distinct().execute();
  const missing: string[] = [];
  for (const { sha256 } of rows) {
    if (!SHA256_PARAM.test(sha256)) continue;
    if (!(await stat(documentPath(ctx.dataDir, sha256)).catch(() => null))) missing.push(sha256);
  }
  return missing;
}
