import type { z } from 'zod';
import {
  createOrderBodySchema,
  IDEMPOTENCY_KEY_PATTERN,
  updateOrderBodySchema,
} from '../../shared/orders';
import { invalidRequest } from '../core/errors';
import { invalidInput, issuesText } from '../http/parse';
import { parsePart, type InvalidHook } from '../http/route-def';

export const CREATE_FAILED_PREFIX = 'Failed to create order: ';
export const PICKSHEET_REQUIRED = `${CREATE_FAILED_PREFIX}picksheet_code is required`;
export const INVALID_BODY = 'Invalid request body';

function picksheetMissing(input: unknown): boolean {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return true;
  const code = (input as Record<string, unknown>)['picksheet_code'];
  return code === undefined || code === null || (typeof code === 'string' && code.trim() === '');
}

/**
 * Endpoint 4's refused body: a missing picksheet code has the interface's own message; any other
 * problem reads `Failed to create order: <first problem>`, with every problem in `details`.
 * (A missing code always fails the schema, so checking it only on refusal is the same.)
 */
export const createBodyInvalid: InvalidHook = ({ issues, input }) => {
  if (picksheetMissing(input)) {
    return invalidRequest(PICKSHEET_REQUIRED, { details: 'picksheet_code: is required' });
  }
  const details = issuesText(issues);
  const first = details.split('; ')[0] ?? details;
  return invalidRequest(`${CREATE_FAILED_PREFIX}${first}`, { details });
};

/** Endpoints 5 and 6's refused body: `Invalid request body` with a string `details`. */
export const changeBodyInvalid: InvalidHook = ({ issues, input }) =>
  picksheetMissing(input)
    ? invalidRequest(INVALID_BODY, { details: 'picksheet_code: is required' })
    : invalidInput(INVALID_BODY, issues);

/** Endpoint 4's body as its route parses it (the property tests hold the messages to any body). */
export const parseCreateBody = (input: unknown): z.output<typeof createOrderBodySchema> =>
  parsePart(createOrderBodySchema, 'body', input, createBodyInvalid);
/** Endpoint 5's body as its route parses it. */
export const parseUpdateBody = (input: unknown): z.output<typeof updateOrderBodySchema> =>
  parsePart(updateOrderBodySchema, 'body', input, changeBodyInvalid);

/** The `Idempotency-Key` header: absent, or 1 to 255 visible ASCII characters. */
export function parseIdempotencyKey(header: unknown): string | null {
  if (header === undefined) return null;
  if (typeof header === 'string' && IDEMPOTENCY_KEY_PATTERN.test(header)) return header;
  throw invalidRequest(
    `${CREATE_FAILED_PREFIX}Idempotency-Key must be 1 to 255 visible ASCII characters`,
    { details: 'Idempotency-Key: must be 1 to 255 visible ASCII characters, sent once' },
  );
}
