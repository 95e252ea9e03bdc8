import { z } from 'zod';
import { uuidSchema } from './ids';

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

export const facilityIdParamsSchema = z.object({ facility_id: uuidSchema });
export const retailerQuerySchema = z.object({ brand_id: uuidSchema.optional() });
