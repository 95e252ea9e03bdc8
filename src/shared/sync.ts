import { z } from 'zod';

/** The sync protocol this build speaks; every sync request names it in this header. */
export const SYNC_PROTOCOL_VERSION = 1;
export const SYNC_PROTOCOL_HEADER = 'x-sync-protocol';

export const syncRoleSchema = z.enum(['standalone', 'workstation', 'central']);
export type SyncRole = z.infer<typeof syncRoleSchema>;

/** `GET /api/sync/v1/status`: what the header badge shows. */
export const syncStatusSchema = z.object({
  role: syncRoleSchema,
  online: z.boolean(),
  pending_mutations: z.number().int().nonnegative(),
  last_push_at: z.string().nullable(),
  last_pull_at: z.string().nullable(),
  conflicts: z.number().int().nonnegative(),
  /** Why the last sync round failed (a workstation), e.g. a wrong device secret; else null. */
  last_error: z.string().nullable().default(null),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

/** One field the central refused, with both values (JSON values as stored in the row). */
const conflictFieldSchema = z.object({
  table: z.string(),
  /** The row's key (its key columns' values). */
  key: z.array(z.unknown()).optional(),
  field: z.string(),
  yours: z.unknown(),
  central: z.unknown(),
});
export type ConflictField = z.infer<typeof conflictFieldSchema>;

const conflictStatusSchema = z.enum(['open', 'resolved']);
const conflictActionSchema = z.enum(['keep_central', 'apply_mine']);
export type ConflictAction = z.infer<typeof conflictActionSchema>;

/** A mutation the central refused for good, as the Sync screen lists it. */
export const syncConflictSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  device_id: z.string(),
  seq: z.number().int(),
  /** What the clerk did, e.g. `ORDER_UPDATE` or `orders.update`. */
  mutation: z.string(),
  order_id: z.string().nullable(),
  picksheet_code: z.string().nullable(),
  reason: z.string(),
  fields: z.array(conflictFieldSchema),
  status: conflictStatusSchema,
  resolution: conflictActionSchema.nullable(),
  resolved_at: z.string().nullable(),
});
export type SyncConflict = z.infer<typeof syncConflictSchema>;

/** `GET /api/sync/v1/conflicts?status=&page=&page_size=` */
export const conflictListQuerySchema = z.object({
  status: conflictStatusSchema.default('open'),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(50),
});

export const resolveConflictBodySchema = z.object({ action: conflictActionSchema });
