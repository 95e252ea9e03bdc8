import { describe, expect, it } from 'vitest';
import { PACKING_COMPLETE } from '../../src/shared/fulfilment';
import { ApiError } from '../../src/renderer/src/api/ApiError';
import { isPackingComplete } from '../../src/renderer/src/screens/packing/serviceRefusals';

describe('refusals the packing screen answers with an offer', () => {
  it('a Packed order is known by the shared PACKING_COMPLETE wording on a 409', () => {
    expect(isPackingComplete(new ApiError(409, 'INVALID_REQUEST', PACKING_COMPLETE))).toBe(true);
    expect(isPackingComplete(new ApiError(409, 'INVALID_REQUEST', 'Carton not found'))).toBe(false);
    expect(isPackingComplete(new ApiError(400, 'INVALID_REQUEST', PACKING_COMPLETE))).toBe(false);
    expect(isPackingComplete(new Error(PACKING_COMPLETE))).toBe(false);
  });
});
