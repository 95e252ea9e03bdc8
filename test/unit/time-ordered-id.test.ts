import { describe, expect, it } from 'vitest';
import { uuidSchema } from '../../src/shared/ids';
import { timeOrderedUuid } from '../../src/server/core/time-ordered-id';

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID that the interface accepts as an id', () => {
    const id = timeOrderedUuid();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidSchema.safeParse(id).success).toBe(true);
  });

  it('carries the Unix milliseconds in its first 48 bits', () => {
    const before = Date.now();
    const id = timeOrderedUuid();
    const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('increases from one id to the next in a process, and never repeats', () => {
    const ids = Array.from({ length: 5000 }, () => timeOrderedUuid()); // more than one millisecond's worth
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
