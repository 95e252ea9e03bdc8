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
    const now = Date.UTC(2030, 0, 2, 3, 4, 5, 678);
    const id = timeOrderedUuid(now);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(now);
  });

  it('increases within one millisecond and across them, and never repeats', () => {
    const now = Date.UTC(2031, 5, 6);
    const ids = [
      ...Array.from({ length: 5000 }, () => timeOrderedUuid(now)), // more than the 4096 sequence
      ...Array.from({ length: 10 }, () => timeOrderedUuid(now + 1)),
      ...Array.from({ length: 10 }, () => timeOrderedUuid(now + 50)),
    ];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps the order when the clock steps back', () => {
    const now = Date.UTC(2032, 1, 1);
    const first = timeOrderedUuid(now);
    const second = timeOrderedUuid(now - 10_000);
    expect(second > first).toBe(true);
  });
});
