import { randomUUID } from 'node:crypto';
import type { BrandConnection } from '../queries';
import { openTransportJson } from '../../core/secret-box';
import { buildDirectFeed } from './direct-feed';
import type { AdviceLine, EdiSettings, OutboundDocument, TransportConfig } from './types';
import { build846, X12_CONTENT_TYPE } from './x12-846';

/** What every document of one snapshot shares. */
export interface SnapshotContext {
  snapshotId: string;
  createdAt: Date;
  brand: { brand_id: string; name: string; external_brand_code: string | null };
  facility: { id: string; name: string; external_facility_code: string } | null;
  items: AdviceLine[];
}

/** A new snapshot of `items` for the brand (and facility) an advice resolved to. */
export function newSnapshot(
  target: Pick<SnapshotContext, 'brand' | 'facility'>,
  items: AdviceLine[],
  createdAt: Date,
): SnapshotContext {
  return {
    snapshotId: randomUUID(),
    createdAt,
    brand: target.brand,
    facility: target.facility,
    items,
  };
}

/** The connection's transport, its credentials opened where the desktop sealed them. */
export const transportOf = (connection: Pick<BrandConnection, 'transport_json'>) =>
  JSON.parse(openTransportJson(connection.transport_json)) as TransportConfig;

/** The exact bytes a connection receives for a snapshot: an X12 846 or the direct JSON feed. */
export function documentFor(
  connection: BrandConnection,
  snapshot: SnapshotContext,
  deliveryId: string,
  controlNumbers: { interchange: number; group: number } | null,
): OutboundDocument {
  if (connection.kind === 'EDI_846') {
    if (!controlNumbers || !connection.edi_json) throw new Error('EDI settings are missing');
    const built = build846({
      edi: JSON.parse(connection.edi_json) as EdiSettings,
      interchangeControlNumber: controlNumbers.interchange,
      groupControlNumber: controlNumbers.group,
      referenceId: `INV-${snapshot.snapshotId.slice(0, 8)}-${controlNumbers.interchange}`,
      createdAt: snapshot.createdAt,
      shipFrom: snapshot.facility
        ? { name: snapshot.facility.name, code: snapshot.facility.external_facility_code }
        : null,
      vendorId: snapshot.brand.external_brand_code,
      items: snapshot.items,
    });
    return {
      body: built.text,
      contentType: X12_CONTENT_TYPE,
      fileName: built.fileName,
      idempotencyKey: deliveryId,
    };
  }
  const feed = buildDirectFeed({
    idempotencyKey: deliveryId,
    generatedAt: snapshot.createdAt,
    brand: snapshot.brand,
    facility: snapshot.facility,
    organization_id: connection.organization_id,
    retailer_id: connection.retailer_id,
    items: snapshot.items,
  });
  return {
    body: feed.body,
    contentType: feed.contentType,
    fileName: feed.fileName,
    idempotencyKey: deliveryId,
  };
}
