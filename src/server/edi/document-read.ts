/**
 * One document of an order, read by a clerk (X12 one segment per line, JSON indented) or
 * downloaded as sent. Same visibility as the order's details: another tenant's order, and a
 * document of another order, answer exactly like unknown ones.
 */
import type { AuthUser, ServiceContext } from '../core/context';
import { notFound } from '../core/errors';
import { contentDisposition } from '../core/file-name';
import { findOrderForUser, ORDER_NOT_FOUND } from '../orders';
import type { OrderDocumentDetail } from '../../shared/edi-documents';
import { findOrderDocumentView } from './queries';

const DOCUMENT_NOT_FOUND = 'Document not found';
/** ISA is fixed-width: its 106th character is the segment terminator. */
const ISA_LENGTH = 106;

/** X12 with one segment per line; indented JSON; anything else as it is. */
export function readableContent(content: string): string {
  const text = content.trimStart();
  if (text.startsWith('ISA') && text.length >= ISA_LENGTH) {
    const terminator = text[ISA_LENGTH - 1]!;
    return text
      .split(terminator)
      .map((segment) => segment.replace(/^[\r\n]+|[\r\n]+$/g, ''))
      .filter((segment) => segment !== '')
      .map((segment) => `${segment}${terminator}`)
      .join('\n');
  }
  try {
    return JSON.stringify(JSON.parse(content), null, 2);
  } catch {
    return content;
  }
}

async function visibleDocument(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  documentId: string,
) {
  const order = await findOrderForUser(ctx.db, user, orderId);
  if (!order) throw notFound(ORDER_NOT_FOUND);
  const row = await findOrderDocumentView(
    ctx.db,
    order.id,
    documentId,
    ctx.clock.now().toISOString(),
  );
  if (!row) throw notFound(DOCUMENT_NOT_FOUND);
  return row;
}

export async function orderDocumentDetail(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  documentId: string,
): Promise<OrderDocumentDetail> {
  const { document, ...view } = await visibleDocument(ctx, user, orderId, documentId);
  return { ...view, readable: document === null ? null : readableContent(document) };
}

export interface DocumentDownload {
  bytes: Buffer;
  contentType: string;
  contentDisposition: string;
}

/** The exact bytes sent, named as they were sent; a document that could not be built has none. */
export async function orderDocumentContent(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  documentId: string,
): Promise<DocumentDownload> {
  const row = await visibleDocument(ctx, user, orderId, documentId);
  if (row.document === null) {
    throw notFound('This document has no content: it could not be built');
  }
  const isX12 = row.document.trimStart().startsWith('ISA');
  const contentType = row.content_type ?? (isX12 ? 'application/edi-x12' : 'application/json');
  const fallback = `${row.type.toLowerCase()}_${row.id}.${isX12 ? 'edi' : 'json'}`;
  // Stored names are ours, but only safe characters ever reach the header.
  const fileName = (row.file_name ?? fallback).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120);
  return {
    bytes: Buffer.from(row.document, 'utf8'),
    contentType: /charset=/i.test(contentType) ? contentType : `${contentType}; charset=utf-8`,
    contentDisposition: contentDisposition(fileName, 'attachment'),
  };
}
