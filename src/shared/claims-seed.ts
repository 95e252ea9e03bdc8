import { z } from 'zod';

/** An entry of chargebacks (seed bundle 'chargebacks'); filled in by that feature. */
export const seedChargebackSchema = z.never();
export type SeedChargeback = z.infer<typeof seedChargebackSchema>;

/** An entry of POS rows (seed bundle 'pos_reports'); filled in by that feature. */
export const seedPosRowSchema = z.never();
export type SeedPosRow = z.infer<typeof seedPosRowSchema>;
