import type { z } from 'zod';

/**
 * Issues for every text holding a NUL character in a parsed path or query. No path or query value
 * means anything with NUL, and PostgreSQL refuses NUL in text parameters with an error (SQLite
 * takes it), so both engines answer 400 in the envelope rather than one of them a 500. Bodies are
 * left to their schemas: an uploaded file name with NUL, say, is cleaned rather than refused.
 */
export function nulTextIssues(value: unknown, path: PropertyKey[] = []): z.core.$ZodIssue[] {
  if (typeof value === 'string') {
    return value.includes('\u0000')
      ? [{ code: 'custom', path, message: 'must not contain a NUL character', input: value }]
      : [];
  }
  if (Array.isArray(value))
    return value.flatMap((item, index) => nulTextIssues(item, [...path, index]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => nulTextIssues(item, [...path, key]));
  }
  return [];
}
