import { zipSync, type Zippable } from 'fflate';
import { findChargeback } from './queries';
import { listBolVersions } from '../orders';
import { findOrderDocument } from '../orders';
import { contentDisposition } from '../core/file-name';
import { readStoredFile } from '../db/stored-files';
import { CHARGEBACK_MESSAGES } from '../../shared/claims';
import { localDay } from '../../shared/inventory';
import type { AuthUser, ServiceContext } from '../core/context';
import { complianceReportPdf } from '../documents';
import { DomainError, notFound } from '../core/errors';
import { chargebackView, matchOrders } from './chargebacks';
import { buildCartonPalletPdf, buildCoverPdf } from './packet-pdf';
import { visibleBrandIds } from './scope';

/** A name safe inside a zip on every system. */
const safePart = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'order';

export interface DisputePacket {
  fileName: string;
  contentDisposition: string;
  bytes: Uint8Array;
}

/**
 * The evidence for disputing a chargeback, as a zip of PDFs: `cover.pdf` (the chargeback, its
 * matched orders and the list of files), then per matched order a folder with every bill of
 * lading version exactly as uploaded, its compliance report (orders never packed have none) and
 * its cartons and pallets. A chargeback of a brand the user does not see is 404 like an unknown one.
 */
export async function disputePacket(
  ctx: ServiceContext,
  user: AuthUser,
  chargebackId: string,
): Promise<DisputePacket> {
  const row = await findChargeback(ctx.db, chargebackId, await visibleBrandIds(ctx, user));
  if (!row) throw notFound(CHARGEBACK_MESSAGES.notFound);
  const now = ctx.clock.now();
  const [matched = []] = await matchOrders(ctx, user, [row]);
  const chargeback = chargebackView(row, matched, localDay(now));

  const files: Zippable = {};
  const contents: string[] = [];
  const folders = new Set<string>();
  for (const order of matched) {
    let folder = `orders/${safePart(order.picksheet_code)}`;
    if (folders.has(folder)) folder = `${folder}_${order.order_id.slice(0, 8)}`;
    folders.add(folder);

    const bols = await listBolVersions(ctx.db, order.order_id);
    for (const bol of [...bols].reverse()) {
      const name = `${folder}/bol-v${bol.version}-${safePart(bol.file_name)}`;
      files[name] = await readStoredFile(ctx, bol.sha256);
      contents.push(`${name}: bill of lading version ${bol.version}, uploaded ${bol.uploaded_at}`);
    }
    if (bols.length === 0) contents.push(`${folder}: no bill of lading uploaded`);

    try {
      const report = await complianceReportPdf(ctx, user, order.order_id);
      const name = `${folder}/${safePart(report.filename)}`;
      files[name] = report.bytes;
      contents.push(`${name}: compliance report`);
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'not_found')) throw error;
      contents.push(`${folder}: no compliance report (the order has not been packed)`);
    }

    const document = await findOrderDocument(ctx.db, order.order_id);
    if (document) {
      const name = `${folder}/cartons-and-pallets.pdf`;
      files[name] = await buildCartonPalletPdf(document, now);
      contents.push(`${name}: pallets, cartons, SSCCs and SKU lines`);
    }
  }
  const cover = await buildCoverPdf(chargeback, row.brand_name, contents, now);
  const fileName = `dispute-packet-${safePart(row.chargeback_id)}.zip`;
  // The cover first; PDFs are mostly compressed already, so a light level is enough.
  const bytes = zipSync({ 'cover.pdf': cover, ...files }, { level: 1, mtime: now });
  return { fileName, contentDisposition: contentDisposition(fileName, 'attachment'), bytes };
}
