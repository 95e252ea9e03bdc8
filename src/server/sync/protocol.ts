import { z } from 'zod';

/** One row change of a mutation, as the capture triggers recorded it (docs/sync.md). */
export const rowChangeSchema = z.object({
  t: z.string().min(1),
  op: z.enum(['I', 'U', 'D']),
  k: z.array(z.union([z.string(), z.number(), z.null()])).min(1),
  old: z.record(z.string(), z.unknown()).nullable().optional(),
  new: z.record(z.string(), z.unknown()).nullable().optional(),
  v: z.number().int().nullable().optional(),
});
export type RowChange = z.infer<typeof rowChangeSchema>;

export const mutationSchema = z.object({
  seq: z.number().int().min(1),
  name: z.string().min(1).max(200),
  args: z.object({ changes: z.array(rowChangeSchema) }),
  base_version: z.number().int().nullable().optional(),
  at: z.string().min(1).max(40),
});
export type PushedMutation = z.infer<typeof mutationSchema>;

export const PUSH_BATCH_MAX = 1000;
export const pushBodySchema = z.object({
  mutations: z.array(mutationSchema).max(PUSH_BATCH_MAX),
});

export const sessionBodySchema = z.object({
  device_id: z.string().min(1).max(100),
  device_secret: z.string().min(1).max(500),
});

export const PULL_PAGE_DEFAULT = 5000;
export const pullQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50_000).default(PULL_PAGE_DEFAULT),
});

/** A row of a pull page: the central's row, or a tombstone. */
export interface PulledChange {
  t: string;
  k: unknown[];
  v: number;
  row?: Record<string, unknown>;
  deleted?: true;
}

export interface PullPage {
  epoch: string;
  /** True when the workstation must drop its replicated rows first (new epoch or first pull). */
  reset: boolean;
  cursor: string;
  more: boolean;
  /** The last seq of this device the central applied. */
  last_seq: number;
  changes: PulledChange[];
  evictions: { v: number; order_id: string }[];
}

export interface PushAnswer {
  last_seq: number;
  applied: number;
  duplicates: number;
  rejected: number;
  /** Applied, except fields that had changed on the central meanwhile (each one a conflict). */
  conflicts: number;
}
