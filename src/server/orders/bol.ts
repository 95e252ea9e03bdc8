import { randomUUID } from 'node:crypto';
import { BOL_MAX_FILE_BYTES, type BolBody, type BolVersion } from '../../shared/orders';
import {
  findBolVersion,
  listBolVersions,
  lockOrderForBolUpload,
  recordBolUpload,
  type BolVersionRow,
  type OrderBolFacts,
} from './bol-queries';
import { findOrderForUser } from './queries';
import type { Db } from '../db/db';
import type { TransactionsTable } from '../db/schema';
import { contentDisposition, sanitiseFileName } from '../core/file-name';
import { PdfChecker } from '../core/pdf-check';
import { readStoredFile, storeFile } from '../db/stored-files';
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict, DomainError, invalidRequest, notFound } from '../core/errors';

/** The interface's messages for endpoint 7. */
export const BOL_MESSAGES = {
  uploaded: 'BOL uploaded successfully',
  invalid: 'Invalid Request - Missing required fields',
  failed: 'Failed to upload BOL',
  orderNotFound: 'Order not found',
  versionNotFound: 'BOL version not found',
  cancelled: 'A bill of lading cannot be attached to a Cancelled order',
} as const;

/** Transaction-log action of an upload (the interface's list has no code for it). */
export const BOL_UPLOAD_ACTION = { code: 'UPLOAD_BOL', label: 'Upload bill of lading' } as const;

const invalidBol = (details: string) => invalidRequest(BOL_MESSAGES.invalid, { details });

/** Standard alphabet, padded, no whitespace or line breaks (RFC 4648 section 4). */
const STRICT_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The decoded size of a base64 text, without decoding it. */
const decodedSize = (text: string) =>
  (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);

/** Strict base64 to bytes; refuses what Buffer.from would silently skip or guess. */
export function decodeBolContent(text: string): Buffer {
  if (text.length % 4 !== 0 || !STRICT_BASE64.test(text)) {
    throw invalidBol(
      'file_content must be standard base64 (A-Z, a-z, 0-9, +, /, padded with =, no line breaks)',
    );
  }
  if (decodedSize(text) > BOL_MAX_FILE_BYTES) {
    throw new DomainError('payload_too_large', 'INVALID_REQUEST', BOL_MESSAGES.invalid, {
      details: `file_content is larger than ${BOL_MAX_FILE_BYTES} bytes (10 MB) once decoded`,
    });
  }
  return Buffer.from(text, 'base64');
}

/** `YYYY-MM-DD HH:mm:ss` (already checked by the body schema) as ISO 8601, read as UTC. */
const isoOfBolDateTime = (text: string) => `${text.replace(' ', 'T')}.000Z`;

/** Only the facts the upload gives: an absent field keeps the order's value. */
function factsOf(body: BolBody): OrderBolFacts {
  const facts: OrderBolFacts = {};
  if (body.bill_of_lading_number != null) facts.bill_of_lading_number = body.bill_of_lading_number;
  if (body.pro_number != null) facts.pro_number = body.pro_number;
  if (body.carrier != null) facts.carrier = body.carrier;
  if (body.carrier_alpha_code != null) facts.carrier_alpha_code = body.carrier_alpha_code;
  if (body.external_load_number != null) facts.external_load_number = body.external_load_number;
  if (body.scheduled_delivery_date != null) {
    facts.scheduled_delivery_date = isoOfBolDateTime(body.scheduled_delivery_date);
  }
  return facts;
}

let sharedChecker: PdfChecker | null = null;
/** One checker (one worker thread) per process, started at the first upload (also a sync one). */
export const pdfChecker = () => (sharedChecker ??= new PdfChecker());

async function visibleOrder(ctx: ServiceContext, user: AuthUser, orderId: string) {
  const order = await findOrderForUser(ctx.db, user, orderId);
  if (!order) throw notFound(BOL_MESSAGES.orderNotFound);
  return order;
}

export interface BolUploaded {
  versionId: string;
  version: number;
}

/**
 * What else an upload does in its own transaction, before it writes the facts: the tracking
 * updates a shipped order's retailers get (edi's queueTrackingUpdates). The route passes it in,
 * since edi imports orders and not the other way round. `send` runs after the commit, `release`
 * when the transaction rolls back.
 */
export type BolFactsHook = (
  trx: Db,
  orderId: string,
  facts: OrderBolFacts,
  at: string,
) => Promise<{ send(): Promise<void>; release(): void }>;

/**
 * Endpoint 7. Checks the PDF, stores it under its SHA-256 in the data dir, then, in one
 * transaction, sets the order's BOL facts and adds a version row and a transaction-log row. The
 * file is written before the transaction and nothing is awaited inside it: a crash in between
 * leaves at most a content-addressed file that nothing references, which is harmless.
 */
export async function uploadBillOfLading(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  body: BolBody,
  checker: PdfChecker = pdfChecker(),
  onFacts?: BolFactsHook,
): Promise<BolUploaded> {
  const startedAt = performance.now();
  const order = await visibleOrder(ctx, user, orderId);
  if (order.status === 'Cancelled') {
    throw conflict(BOL_MESSAGES.cancelled, { details: `The order is ${order.status}` });
  }
  const bytes = decodeBolContent(body.file_content);
  const verdict = await checker.check(bytes);
  if (!verdict.ok) throw invalidBol(verdict.reason);

  const fileName = sanitiseFileName(body.file_name);
  const stored = await storeFile(ctx, bytes);

  const versionId = randomUUID();
  const at = ctx.clock.now().toISOString();
  const facts = factsOf(body);
  const { file_content: _content, ...sent } = body;
  let after: Awaited<ReturnType<BolFactsHook>> | undefined;
  const recorded = ctx.db.transaction().execute(async (trx) => {
    if (onFacts) {
      await lockOrderForBolUpload(trx, order.id, at);
      after = await onFacts(trx, order.id, facts, at);
    }
    return recordBolUpload(trx, {
      orderId: order.id,
      facts,
      updatedAt: at,
      version: {
        id: versionId,
        sha256: stored.sha256,
        file_name: fileName,
        size: stored.size,
        page_count: verdict.pages,
        uploaded_by: user.id,
        uploaded_at: at,
        bill_of_lading_number: body.bill_of_lading_number ?? null,
        pro_number: body.pro_number ?? null,
        carrier: body.carrier ?? null,
        carrier_alpha_code: body.carrier_alpha_code ?? null,
        scheduled_delivery_date: body.scheduled_delivery_date ?? null,
        external_load_number: body.external_load_number ?? null,
      },
      log: {
        transaction_id: randomUUID(),
        action_type: BOL_UPLOAD_ACTION.code,
        action_type_label: BOL_UPLOAD_ACTION.label,
        brand_id: order.brand_id,
        retailer_id: order.retailer_id,
        facility_id: order.facility_id,
        order_id: order.id,
        carton_id: null,
        load_id: null,
        correlation_id: versionId,
        duration_ms: Math.max(0, Math.round(performance.now() - startedAt)),
        error_message: null,
        execution_status: 'SUCCESS' satisfies TransactionsTable['execution_status'],
        request_method: 'POST',
        request_url: `/api/documents/bol/${order.id}`,
        // The PDF itself is in the document store; the log names it by digest.
        request_payload: JSON.stringify({
          ...sent,
          file_name: fileName,
          sha256: stored.sha256,
          size: stored.size,
        }),
        response_body: JSON.stringify({ message: BOL_MESSAGES.uploaded }),
        response_status: 200,
        created_at: at,
        updated_at: at,
      },
    });
  });
  let version: number;
  try {
    version = await recorded;
  } catch (error) {
    after?.release();
    throw error;
  }
  // Network I/O only now, after the commit.
  await after?.send();
  return { versionId, version };
}

const versionOf = (orderId: string, row: BolVersionRow): BolVersion => ({
  version_id: row.id,
  version: row.version,
  file_name: row.file_name,
  size_bytes: row.size,
  page_count: row.page_count,
  sha256: row.sha256,
  uploaded_at: row.uploaded_at,
  uploaded_by: row.uploaded_by,
  uploaded_by_email: row.uploaded_by_email,
  bill_of_lading_number: row.bill_of_lading_number,
  pro_number: row.pro_number,
  carrier: row.carrier,
  carrier_alpha_code: row.carrier_alpha_code,
  scheduled_delivery_date: row.scheduled_delivery_date,
  external_load_number: row.external_load_number,
  file_url: `/api/v1/orders/${orderId}/bol/${row.id}/file`,
});

/** Every bill of lading of a visible order, newest first. */
export async function bolHistory(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
): Promise<BolVersion[]> {
  const order = await visibleOrder(ctx, user, orderId);
  const rows = await listBolVersions(ctx.db, order.id);
  return rows.map((row) => versionOf(order.id, row));
}

export interface BolFile {
  bytes: Buffer;
  contentDisposition: string;
}

export const BOL_FILE_NOT_SYNCED =
  'The BOL file has not reached this workstation yet; it comes with the next sync';

/** One stored PDF of a visible order. */
export async function bolFile(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  versionId: string,
): Promise<BolFile> {
  const order = await visibleOrder(ctx, user, orderId);
  const version = await findBolVersion(ctx.db, order.id, versionId);
  if (!version) throw notFound(BOL_MESSAGES.versionNotFound);
  const bytes = await readStoredFile(ctx, version.sha256).catch((error: unknown) => {
    // A synced workstation gets the row first and the file in the next sync round.
    if ((error as { code?: unknown }).code === 'ENOENT' && ctx.sync?.client) {
      ctx.sync.client.wantFiles();
      throw notFound(BOL_FILE_NOT_SYNCED);
    }
    throw error;
  });
  return { bytes, contentDisposition: contentDisposition(version.file_name, 'attachment') };
}
