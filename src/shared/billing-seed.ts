import { z } from 'zod';
import { billingPricesBodySchema } from './billing';
import { uuidSchema } from './ids';

/** An entry of billing prices per brand (seed bundle 'billing'): the brand's whole price list. */
export const seedBillingEntrySchema = billingPricesBodySchema.extend({ brand_id: uuidSchema });
export type SeedBillingEntry = z.infer<typeof seedBillingEntrySchema>;
