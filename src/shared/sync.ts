import { z } from 'zod';
import { createOrderBodySchema } from './orders';

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
/** How a conflict was settled: one of the two answers, or its refused order created again. */
const conflictResolutionSchema = z.enum(['keep_central', 'apply_mine', 'created_new']);
export type ConflictResolution = z.infer<typeof conflictResolutionSchema>;
/** The answers the Sync screen offers for an open conflict (the service accepts only these). */
const conflictOfferSchema = z.enum(['keep_central', 'apply_mine', 'create_with_new_picksheet']);
export type ConflictOffer = z.infer<typeof conflictOfferSchema>;

/** A mutation the central refused for good, as the Sync screen lists it. */
export const syncConflictSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  device_id: z.string(),
  seq: z.number().int(),
  /** What the clerk did, e.g. `ORDER_UPDATE` or `orders.update`. */
  mutation: z.string(),
  /** The order, kept even when the central refused to create it (it then exists nowhere). */
  order_id: z.string().nullable(),
  brand_id: z.string().nullable(),
  picksheet_code: z.string().nullable(),
  reason: z.string(),
  fields: z.array(conflictFieldSchema),
  status: conflictStatusSchema,
  resolution: conflictResolutionSchema.nullable(),
  resolved_at: z.string().nullable(),
  /** What may be answered (none once resolved): no Apply mine when the order is Shipped or Cancelled. */
  offers: z.array(conflictOfferSchema),
});
export type SyncConflict = z.infer<typeof syncConflictSchema>;

/** `GET /api/sync/v1/conflicts?status=&page=&page_size=` */
export const conflictListQuerySchema = z.object({
  status: conflictStatusSchema.default('open'),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(50),
});

export const resolveConflictBodySchema = z.object({ action: conflictActionSchema });

/** `POST /api/sync/v1/conflicts/:id/create-order`: the refused create again, under a new code. */
export const recreateOrderBodySchema = z.object({
  picksheet_code: createOrderBodySchema.shape.picksheet_code,
});
