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
  const header = {
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
  };
  // `items` goes last, serialised once per snapshot and shared by every connection's feed.
  const body = `${JSON.stringify(header).slice(0, -1)},"items":${adviceLinesJson(input.items)}}`;
  return {
    body,
    contentType: 'application/json',
    fileName: `inventory_${safeFileNamePart(input.idempotencyKey)}.json`,
  };
}

/** The key ends up in sftp/file paths: keep it from escaping the target directory. */
function safeFileNamePart(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '_');
}

const linesJsonCache = new WeakMap<readonly AdviceLine[], string>();

/** The fields of a line the feed (and the stored snapshot) carries, in this order. */
const LINE_FIELDS: (keyof AdviceLine)[] = [
  'sku',
  'available_quantity',
  'status',
  'estimated_back_in_stock_date',
];

/** The items as JSON (sku, available_quantity, status, estimated_back_in_stock_date), cached per array. */
export function adviceLinesJson(items: readonly AdviceLine[]): string {
  let json = linesJsonCache.get(items);
  if (json === undefined) {
    // The key list picks and orders the fields without a copy of every line (lines are flat).
    json = JSON.stringify(items, LINE_FIELDS);
    linesJsonCache.set(items, json);
  }
  return json;
}
