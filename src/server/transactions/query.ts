import { transactionListQuerySchema, type TransactionListQuery } from '../../shared/transactions';
import { invalidRequest } from '../core/errors';

/**
 * The list query, or 400 INVALID_REQUEST naming the first bad parameter the way the interface
 * words it: `Invalid query parameter: transaction_id must be a UUID`.
 */
export function parseTransactionListQuery(input: unknown): TransactionListQuery {
  const result = transactionListQuerySchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = String(issue.path[0] ?? 'query');
  // Every schema message names its parameter; zod's own (rare) ones get the name in front.
  const text = issue.message.startsWith(field) ? issue.message : `${field}: ${issue.message}`;
  throw invalidRequest(`Invalid query parameter: ${text}`);
}
