import { describe, it, expect } from 'vitest';
import {
  buildDirectFeed,
  type DirectFeedInput,
} from '../../src/server/inventory/transmission/direct-feed';

function input(overrides: Partial<DirectFeedInput> = {}): DirectFeedInput {
  return {
    idempotencyKey: '3f2a9c1e-advice-0001',
    generatedAt: new Date('2025-01-15T14:30:00.000Z'),
    brand: { brand_id: 'b-1', name: 'Acme', external_brand_code: null },
    facility: { id: 'f-1', name: 'Main DC', external_facility_code: 'WH01' },
    organization_id: 'org-1',
    retailer_id: 'ret-1',
    items: [
      { sku: 'ACM-100', available_quantity: 120, status: null, estimated_back_in_stock_date: null },
      {
        sku: 'ACM-200',
        available_quantity: 0,
        status: 'TEMPORARILY_UNAVAILABLE',
        estimated_back_in_stock_date: '2025-03-01',
      },
    ],
    ...overrides,
  };
}

describe('buildDirectFeed', () => {
  it('builds the full-snapshot body with nulls kept', () => {
    const feed = buildDirectFeed(input());
    expect(feed.contentType).toBe('application/json');
    expect(feed.fileName).toBe('inventory_3f2a9c1e-advice-0001.json');
    expect(JSON.parse(feed.body)).toEqual({
      idempotency_key: '3f2a9c1e-advice-0001',
      generated_at: '2025-01-15T14:30:00.000Z',
      snapshot_type: 'FULL',
      brand: { brand_id: 'b-1', name: 'Acme', external_brand_code: null },
      facility: { id: 'f-1', name: 'Main DC', external_facility_code: 'WH01' },
      organization_id: 'org-1',
      retailer_id: 'ret-1',
      items: [
        {
          sku: 'ACM-100',
          available_quantity: 120,
          status: null,
          estimated_back_in_stock_date: null,
        },
        {
          sku: 'ACM-200',
          available_quantity: 0,
          status: 'TEMPORARILY_UNAVAILABLE',
          estimated_back_in_stock_date: '2025-03-01',
        },
      ],
    });
    // Keys are present even when null (not dropped by JSON.stringify).
    expect(feed.body).toContain('"estimated_back_in_stock_date":null');
    expect(feed.body).toContain('"external_brand_code":null');
  });

  it('sends facility null for brand-level advice', () => {
    const body = JSON.parse(buildDirectFeed(input({ facility: null })).body);
    expect(body).toHaveProperty('facility', null);
  });

  it('copies only the documented item fields', () => {
    const item = {
      sku: 'X',
      available_quantity: 1,
      status: null,
      estimated_back_in_stock_date: null,
    };
    const body = JSON.parse(
      buildDirectFeed(input({ items: [{ ...item, extra: 1 } as typeof item] })).body,
    );
    expect(Object.keys(body.items[0])).toEqual([
      'sku',
      'available_quantity',
      'status',
      'estimated_back_in_stock_date',
    ]);
  });

  it('keeps the file name inside the target directory', () => {
    const feed = buildDirectFeed(input({ idempotencyKey: '../../etc/passwd' }));
    expect(feed.fileName).toBe('inventory_.._.._etc_passwd.json');
    expect(JSON.parse(feed.body).idempotency_key).toBe('../../etc/passwd');
  });

  it('rejects an empty idempotency key and an invalid date', () => {
    expect(() => buildDirectFeed(input({ idempotencyKey: ' ' }))).toThrow(/idempotencyKey/);
    expect(() => buildDirectFeed(input({ generatedAt: new Date('x') }))).toThrow(/generatedAt/);
  });
});
