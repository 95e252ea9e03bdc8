/**
 * Builds the neutral JSON inventory feed: a full snapshot with absolute quantities, carrying
 * status and back-in-stock dates (which X12 846 does not). Pure: no I/O.
 */
import type { AdviceLine } from './types';

export interface DirectFeedInput {
  idempotencyKey: string;
  generatedAt: Date;
  brand: { brand_id: string; name: string; external_brand_code: string | null };
  /** null for brand-level advice */
  facility: { id: string; name: string; external_facility_code: string } | null;
  organization_id: string;
  retailer_id: string;
  items: AdviceLine[];
}

export interface DirectFeedDocument {
  body: string;
  contentType: 'application/json';
  fileName: string;
}

export function buildDirectFeed(input: DirectFeedInput): DirectFeedDocument {
  if (input.idempotencyKey.trim() === '') throw new Error('Direct feed: idempotencyKey is empty');
  if (Number.isNaN(input.generatedAt.getTime())) {
    throw new Error('Direct feed: generatedAt is not a valid date');
  }
  // Fields are copied explicitly so the wire shape never picks up extra properties.
  const body = {
    idempotency_key: input.idempotencyKey,
    generated_at: input.generatedAt.toISOString(),
    snapshot_type: 'FULL',
    brand: {
      brand_id: input.brand.brand_id,
      name: input.brand.name,
      external_brand_code: input.brand.external_brand_code,
    },
    facility: input.facility && {
      id: input.facility.id,
      name: input.facility.name,
      external_facility_code: input.facility.external_facility_code,
    },
    organization_id: input.organization_id,
    retailer_id: input.retailer_id,
    items: input.items.map((item) => ({
      sku: item.sku,
      available_quantity: item.available_quantity,
      status: item.status,
      estimated_back_in_stock_date: item.estimated_back_in_stock_date,
    })),
  };
  return {
    body: JSON.stringify(body),
    contentType: 'application/json',
    fileName: `inventory_${safeFileNamePart(input.idempotencyKey)}.json`,
  };
}

/** The key ends up in sftp/file paths: keep it from escaping the target directory. */
function safeFileNamePart(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '_');
}
