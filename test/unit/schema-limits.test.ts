import { describe, expect, it } from 'vitest';
import { bolBodySchema, createOrderBodySchema, ORDER_LIMITS } from '../../src/shared/orders';
import { maxLengthAt } from '../../src/shared/schema-limits';

describe('maxLengthAt: the longest text a schema accepts at a form path', () => {
  it('reads through optional, nullable and transform wrappers, objects and arrays', () => {
    expect(maxLengthAt(createOrderBodySchema, 'picksheet_code')).toBe(ORDER_LIMITS.code);
    expect(maxLengthAt(createOrderBodySchema, 'po_number')).toBe(ORDER_LIMITS.code);
    expect(maxLengthAt(createOrderBodySchema, 'items.3.description')).toBe(
      ORDER_LIMITS.description,
    );
    expect(maxLengthAt(createOrderBodySchema, 'items.0.sku')).toBe(ORDER_LIMITS.code);
    expect(maxLengthAt(createOrderBodySchema, 'address_data.ship_to_contact.name')).toBe(
      ORDER_LIMITS.text,
    );
    expect(maxLengthAt(createOrderBodySchema, 'address_data.bill_to_contact.email')).toBe(254);
    expect(maxLengthAt(bolBodySchema, 'pro_number')).toBe(ORDER_LIMITS.code);
  });

  it('is undefined where there is no bounded text', () => {
    expect(maxLengthAt(createOrderBodySchema, 'items.0.quantity')).toBeUndefined();
    expect(maxLengthAt(createOrderBodySchema, 'brand_id')).toBeUndefined();
    expect(maxLengthAt(createOrderBodySchema, 'no_such_field')).toBeUndefined();
    expect(maxLengthAt(createOrderBodySchema, 'items.first.sku')).toBeUndefined();
  });
});
