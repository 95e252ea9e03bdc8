import { z } from 'zod';
import { uuidSchema } from './ids';
import { ACTION_TYPE_LABELS, ACTION_TYPES, EXECUTION_STATUSES } from './transactions';

/**
 * `transactions` of the seed bundle: transaction objects as the interface shows them, except that
 * `action_type` is the upper-case code (the filter's value); `action_type_label`, the phrase
 * responses show, defaults to the code's usual phrase. Upserted by `transaction_id`.
 */
const optionalId = uuidSchema.nullish();
const timestamp = z.iso.datetime({ offset: true });

export const seedTransactionSchema = z
  .strictObject({
    transaction_id: uuidSchema,
    action_type: z.enum(ACTION_TYPES),
    action_type_label: z.string().trim().min(1).max(100).optional(),
    brand_id: optionalId,
    retailer_id: optionalId,
    facility_id: optionalId,
    order_id: optionalId,
    carton_id: optionalId,
    load_id: optionalId,
    correlation_id: z.string().max(200).nullish(),
    duration_ms: z.number().int().nonnegative().default(0),
    error_message: z.string().max(4000).nullish(),
    execution_status: z.enum(EXECUTION_STATUSES),
    request_method: z.string().trim().min(1).max(10).default('POST'),
    request_url: z.string().min(1).max(2000),
    request_payload: z.unknown().optional(),
    response_body: z.unknown().optional(),
    response_status: z.number().int().min(100).max(599).nullish(),
    created_at: timestamp,
    /** Defaults to created_at. */
    updated_at: timestamp.optional(),
  })
  .transform((entry) => ({
    ...entry,
    action_type_label: entry.action_type_label ?? ACTION_TYPE_LABELS[entry.action_type],
  }));
export type SeedTransaction = z.infer<typeof seedTransactionSchema>;
