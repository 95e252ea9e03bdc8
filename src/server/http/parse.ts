import type { ZodType, z } from 'zod';
import { invalidRequest } from '../core/errors';

/** Parses `input` with `schema`, or throws INVALID_REQUEST with `message` (and the issue list as a string). */
export function parseOr<S extends ZodType>(schema: S, input: unknown, message: string): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues
    .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
    .join('; ');
  throw invalidRequest(message, { details });
}
