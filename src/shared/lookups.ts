import { z } from 'zod';

export const facilitySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  external_facility_code: z.string(),
});
export type Facility = z.infer<typeof facilitySchema>;

export const brandSchema = z.object({
  brand_id: z.uuid(),
  name: z.string(),
  external_brand_code: z.string().nullable(),
});
export type Brand = z.infer<typeof brandSchema>;

export const retailerSchema = z.object({
  retailer_id: z.uuid(),
  name: z.string(),
});
export type Retailer = z.infer<typeof retailerSchema>;

export const facilityIdParamsSchema = z.object({ facility_id: z.uuid() });
export const retailerQuerySchema = z.object({ brand_id: z.uuid().optional() });
