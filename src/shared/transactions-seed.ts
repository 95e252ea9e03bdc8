import { z } from 'zod';

/** An entry of transaction-log rows (seed bundle 'transactions'); filled in by that feature. */
export const seedTransactionSchema = z.never();
export type SeedTransaction = z.infer<typeof seedTransactionSchema>;
