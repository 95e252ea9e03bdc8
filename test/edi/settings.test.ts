/** A connection's `order_documents` seed setting (src/shared/order-documents.ts) in the seed bundle. */
import { describe, expect, it } from 'vitest';
import { orderDocumentSettingsOf } from '../../src/server/edi/settings';
import { connectionSchema } from '../../src/shared/seed';
import { baseBundle, id } from '../helpers/fixtures';

const connection = (orderDocuments: unknown) => ({
  ...baseBundle().connections.find((c) => c.id === id('c', 1))!,
  order_documents: orderDocuments,
});

describe('order_documents settings', () => {
  it('takes the DESIGN.md shape with defaults', () => {
    const parsed = connectionSchema.parse(connection({ send: ['856', '855'] }));
    expect(parsed.order_documents).toEqual({
      send: ['856', '855'],
      auto_acknowledge: false,
      auto_invoice: false,
      ack_hours: 24,
    });
    expect(connectionSchema.parse(connection(undefined)).order_documents).toBeUndefined();
  });

  it('refuses unknown document types, keys and a non-positive ack_hours', () => {
    for (const bad of [{ send: ['846'] }, { send: [], colour: 'red' }, { ack_hours: 0 }]) {
      expect(connectionSchema.safeParse(connection(bad)).success, JSON.stringify(bad)).toBe(false);
    }
    expect(connectionSchema.safeParse(connection({ ack_hours: 0.5 })).success).toBe(true);
  });

  it('a stored setting that no longer reads sends nothing', () => {
    expect(orderDocumentSettingsOf('{"send":["999"]}')).toBeNull();
    expect(orderDocumentSettingsOf('not json')).toBeNull();
    expect(orderDocumentSettingsOf(null)).toBeNull();
    expect(orderDocumentSettingsOf('{"send":["856"]}')?.send).toEqual(['856']);
  });
});
