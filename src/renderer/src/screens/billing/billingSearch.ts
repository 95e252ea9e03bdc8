import { z } from 'zod';

/** The Billing screen's URL state; a value that does not fit is dropped rather than an error. */
export const billingSearchSchema = z.object({});
