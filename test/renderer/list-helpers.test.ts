import { describe, expect, it } from 'vitest';
import { brandChoices, retailerChoices } from '../../src/renderer/src/components/FilterFields';
import { emptyFirstPage } from '../../src/renderer/src/components/LoadStates';

describe('emptyFirstPage', () => {
  it('says its message when the first page holds nothing', () => {
    expect(emptyFirstPage(0, 1, 'No orders yet.')).toBe('No orders yet.');
  });

  it('says nothing when the page has rows', () => {
    expect(emptyFirstPage(3, 1, 'No orders yet.')).toBeNull();
    expect(emptyFirstPage(1, 4, 'No orders yet.')).toBeNull();
  });

  it('says nothing on an empty later page, whose pager says so', () => {
    expect(emptyFirstPage(0, 2, 'No orders yet.')).toBeNull();
  });
});

describe('filter choices', () => {
  it('offers brands by id with their names, in the order given', () => {
    expect(
      brandChoices([
        { brand_id: 'b2', name: 'Summit Outdoor' },
        { brand_id: 'b1', name: 'Acme' },
      ]),
    ).toEqual([
      { value: 'b2', label: 'Summit Outdoor' },
      { value: 'b1', label: 'Acme' },
    ]);
  });

  it('offers retailers by id with their names, in the order given', () => {
    expect(retailerChoices([{ retailer_id: 'r1', name: 'Big Box' }])).toEqual([
      { value: 'r1', label: 'Big Box' },
    ]);
  });
});
