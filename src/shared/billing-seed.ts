import { z } from 'zod';

/** An entry of billing prices per brand (seed bundle 'billing'); filled in by that feature. */
export const seedBillingEntrySchema = z.never();
export type SeedBillingEntry = z.infer<typeof seedBillingEntrySchema>;
