import type { z } from 'zod';
import { invalidRequest } from '../core/errors';

/** `items.0.quantity: must be greater than 0; ...`: one string, as the interface shows `details`. */
export function issuesText(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => `${issue.path.map(String).join('.') || 'body'}: ${issue.message}`)
    .join('; ');
}

/** INVALID_REQUEST with `message`, and the issue list as a `details` string. */
export function invalidInput(message: string, issues: readonly z.core.$ZodIssue[]) {
  return invalidRequest(message, { details: issuesText(issues) });
}
