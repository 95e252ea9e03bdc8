import { z } from 'zod';
import {
  brandSchema,
  facilitySchema,
  retailerSchema,
  type Brand,
  type Facility,
  type Retailer,
} from '../../../shared/lookups';
import { isApiError } from './ApiError';
import type { ApiClient } from './client';

const facilitiesSchema = z.array(facilitySchema);
const brandsSchema = z.array(brandSchema);
const retailersSchema = z.array(retailerSchema);

/** Endpoint 17. */
export function listFacilities(api: ApiClient, signal?: AbortSignal): Promise<Facility[]> {
  return api.get('/api/user-facilities/v1/facilities', facilitiesSchema, signal);
}

/** Endpoint 19; a facility without brands answers 404 NO_BRANDS_FOUND, which is an empty list. */
export async function listBrands(
  api: ApiClient,
  facilityId: string,
  signal?: AbortSignal,
): Promise<Brand[]> {
  try {
    return await api.get(
      `/api/brand/v1/facility/${encodeURIComponent(facilityId)}`,
      brandsSchema,
      signal,
    );
  } catch (error) {
    if (isApiError(error) && error.status === 404 && error.code === 'NO_BRANDS_FOUND') return [];
    throw error;
  }
}

/** Endpoint 18; "No retailers found" (404) is an empty list. */
export async function listRetailers(
  api: ApiClient,
  facilityId: string,
  brandId: string,
  signal?: AbortSignal,
): Promise<Retailer[]> {
  const query = new URLSearchParams({ brand_id: brandId });
  try {
    return await api.get(
      `/api/retailer/v1/facility/${encodeURIComponent(facilityId)}?${query}`,
      retailersSchema,
      signal,
    );
  } catch (error) {
    if (isApiError(error) && error.status === 404) return [];
    throw error;
  }
}
