import type { z } from 'zod';

/**
 * Issues for every text holding a NUL character in a parsed path, query or JSON body. No value
 * means anything with NUL, and PostgreSQL refuses NUL in text parameters with an error (SQLite
 * takes it), so both engines answer 400 in the envelope rather than one of them a 500, and a
 * workstation never stores a text its central would refuse at sync. A schema that cleans a text
 * (a bill of lading's file name) drops the NUL before this check sees it. Raw bodies (an X12
 * interchange) and sync pushes are not parsed here: their own readers refuse what they must.
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
