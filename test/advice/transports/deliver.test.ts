import { describe, expect, it } from 'vitest';
import { deliver } from '../../../src/server/inventory/transmission/transports';
import type { TransportConfig } from '../../../src/server/inventory/transmission/types';
import { defaultDeliveryPolicy } from '../../../src/server/inventory/transmission/types';

describe('deliver', () => {
  it('turns an unknown transport type into a failed outcome instead of throwing', async () => {
    const transport = { type: 'ftp', host: 'example.test' } as unknown as TransportConfig;
    const outcome = await deliver(
      transport,
      { body: '{}', contentType: 'application/json', fileName: 'a.json', idempotencyKey: 'k' },
      { dataDir: '/unused', policy: defaultDeliveryPolicy, sleep: async () => {} },
    );

    expect(outcome.success).toBe(false);
    expect(outcome.error).toBe('EINVAL: unknown transport type "ftp"');
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
  });
});
