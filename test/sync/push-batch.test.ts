import { describe, expect, it } from 'vitest';
import { cutPushBatch, PUSH_BODY_BYTES, PUSH_FILE_BYTES } from '../../src/server/sync/client';
import { PUSH_BODY_LIMIT } from '../../src/server/sync/central';
import { UNREFERENCED_FILE_QUOTA_BYTES } from '../../src/server/sync/files';

const MB = 1024 * 1024;
const file = (n: number, size: number) => ({
  sha256: String(n).padStart(64, '0'),
  orderId: '0d000000-0000-4000-8000-000000000001',
  size,
});

describe('a push batch stays within what the central takes', () => {
  it('the client limits fit the central limits with margin', () => {
    expect(PUSH_BODY_BYTES * 2).toBeLessThanOrEqual(PUSH_BODY_LIMIT);
    expect(PUSH_FILE_BYTES * 2).toBeLessThanOrEqual(UNREFERENCED_FILE_QUOTA_BYTES);
  });

  it('small mutations without files: the whole batch', () => {
    const entries = Array.from({ length: 500 }, () => 'x'.repeat(2000));
    expect(cutPushBatch(entries, [])).toEqual({ count: 500, files: [] });
  });

  it('cut before the mutation whose BOL files pass 40 MB; those go in the next push', () => {
    const entries = Array.from({ length: 10 }, () => '{}');
    const files = Array.from({ length: 10 }, (_, i) => [file(i, 9 * MB)]);
    const batch = cutPushBatch(entries, files);
    expect(batch.count).toBe(4); // 4 x 9 MB = 36 MB; the fifth would make 45 MB
    expect(batch.files.map((f) => f.sha256)).toEqual([0, 1, 2, 3].map((n) => file(n, 0).sha256));
  });

  it('cut before the body passes 16 MiB; one mutation larger than that still goes alone', () => {
    const big = 'x'.repeat(6 * MB);
    expect(cutPushBatch([big, big, big, big], []).count).toBe(2);
    const huge = 'x'.repeat(20 * MB);
    expect(cutPushBatch([huge, '{}'], []).count).toBe(1);
  });
});
