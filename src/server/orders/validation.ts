import type { ZodError, ZodType, z } from 'zod';
import {
  changeFacilityBodySchema,
  createOrderBodySchema,
  IDEMPOTENCY_KEY_PATTERN,
  updateOrderBodySchema,
} from '../../shared/orders';
import { invalidRequest } from '../core/errors';

export const CREATE_FAILED_PREFIX = 'Failed to create order: ';
export const PICKSHEET_REQUIRED = `${CREATE_FAILED_PREFIX}picksheet_code is required`;
export const INVALID_BODY = 'Invalid request body';

/** `items.0.quantity: must be greater than 0; ...`: one string, as the interface shows `details`. */
export function issuesText(error: ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.map(String).join('.') || 'body'}: ${issue.message}`)
    .join('; ');
}

function picksheetMissing(input: unknown): boolean {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return true;
  const code = (input as Record<string, unknown>)['picksheet_code'];
  return code === undefined || code === null || (typeof code === 'string' && code.trim() === '');
}

/**
 * Endpoint 4's body, or INVALID_REQUEST: a missing picksheet code has the interface's own message;
 * any other problem reads `Failed to create order: <first problem>`, with every problem in `details`.
 */
export function parseCreateBody(input: unknown): z.infer<typeof createOrderBodySchema> {
  if (picksheetMissing(input)) {
    throw invalidRequest(PICKSHEET_REQUIRED, { details: 'picksheet_code: is required' });
  }
  const result = createOrderBodySchema.safeParse(input);
  if (result.success) return result.data;
  const details = issuesText(result.error);
  const first = details.split('; ')[0] ?? details;
  throw invalidRequest(`${CREATE_FAILED_PREFIX}${first}`, { details });
}

function parseInvalidBody<S extends ZodType>(schema: S, input: unknown): z.infer<S> {
  if (picksheetMissing(input)) {
    throw invalidRequest(INVALID_BODY, { details: 'picksheet_code: is required' });
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw invalidRequest(INVALID_BODY, { details: issuesText(result.error) });
}

/** Endpoint 5's body, or `Invalid request body` with a string `details`. */
export const parseUpdateBody = (input: unknown) => parseInvalidBody(updateOrderBodySchema, input);
/** Endpoint 6's body, or `Invalid request body` with a string `details`. */
export const parseChangeFacilityBody = (input: unknown) =>
  parseInvalidBody(changeFacilityBodySchema, input);

/** The `Idempotency-Key` header: absent, or 1 to 255 visible ASCII characters. */
export function parseIdempotencyKey(header: unknown): string | null {
  if (header === undefined) return null;
  if (typeof header === 'string' && IDEMPOTENCY_KEY_PATTERN.test(header)) return header;
  throw invalidRequest(
    `${CREATE_FAILED_PREFIX}Idempotency-Key must be 1 to 255 visible ASCII characters`,
    { details: 'Idempotency-Key: must be 1 to 255 visible ASCII characters, sent once' },
  );
}
