import { z } from 'zod';

/** The Settings screen's URL state; a value that does not fit is dropped rather than an error. */
export const settingsSearchSchema = z.object({});
