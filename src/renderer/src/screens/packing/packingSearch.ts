import { z } from 'zod';

/** The Packing screen's URL state; a value that does not fit is dropped rather than an error. */
export const packingSearchSchema = z.object({});
