import { z } from 'zod';

/** Written on health while a write has failed for lack of space and none has succeeded since. */
export const DISK_FULL_HEALTH_MESSAGE =
  'The disk holding the data is full: writes are refused until space is freed';

/** `GET /api/health` (bare, no envelope): `disk_full` while writes fail for lack of space. */
export const healthSchema = z.object({
  status: z.enum(['ok', 'disk_full']),
  version: z.string(),
  message: z.string().optional(),
});
export type Health = z.infer<typeof healthSchema>;
