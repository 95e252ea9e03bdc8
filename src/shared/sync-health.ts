import { z } from 'zod';

/**
 * `GET /api/sync/v1/health` on a central: what operations watch (docs/operations.md, Monitoring).
 * Ages are whole seconds; null where there is nothing to measure.
 */
export const syncHealthSchema = z.object({
  engine: z.enum(['sqlite', 'postgres']),
  at: z.string(),
  /** The highest version the central has handed out and committed. */
  latest_version: z.number(),
  /** Every device, the stalest first (never pulled, then the oldest pull). */
  devices: z.array(
    z.object({
      device_id: z.string(),
      name: z.string(),
      disabled: z.boolean(),
      last_pull_at: z.string().nullable(),
      pull_age_seconds: z.number().nullable(),
      /** The central's latest version when it last pulled to the end; null before it did. */
      pulled_version: z.number().nullable(),
      /** latest_version minus pulled_version: versions written since, in any facility. */
      versions_behind: z.number().nullable(),
      last_push_at: z.string().nullable(),
      last_seq: z.number(),
    }),
  ),
  /**
   * PostgreSQL: the age of the oldest open transaction that holds a transaction id (it holds every
   * pull's watermark back), and the transaction ids between the watermark and the newest one
   * finished: about how many transactions committed that pulls cannot serve yet. Null on SQLite,
   * whose central writes one transaction at a time.
   */
  oldest_transaction: z
    .object({ age_seconds: z.number().nullable(), watermark_lag_xids: z.number() })
    .nullable(),
  /** Deliveries this central sends that have not gone out: waiting, or failed and retried. */
  pending_deliveries: z.object({
    advices: z.object({
      queued: z.number(),
      failed: z.number(),
      oldest_queued_seconds: z.number().nullable(),
    }),
    order_documents: z.object({
      queued: z.number(),
      failed: z.number(),
      oldest_queued_seconds: z.number().nullable(),
    }),
  }),
});

export type SyncHealth = z.infer<typeof syncHealthSchema>;
