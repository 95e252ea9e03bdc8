/** The clerk words of a polled file refused as too large: human sizes, never "16 MB, larger than 16 MB". */
import { describe, expect, it } from 'vitest';
import { tooLargeReason } from '../../src/server/edi/inbound-too-large';
import { humanSize } from '../../src/shared/human-size';
import { INBOUND_MAX_BYTES } from '../../src/shared/edi-inbound';

describe('a too-large file in clerk words', () => {
  it('says sizes in bytes, kB, MB and GB', () => {
    expect(humanSize(512)).toBe('512 bytes');
    expect(humanSize(2048)).toBe('2 kB');
    expect(humanSize(INBOUND_MAX_BYTES)).toBe('16 MB');
    expect(humanSize(2.1 * 1024 ** 3)).toBe('2.1 GB');
    expect(humanSize(3 * 1024 ** 3)).toBe('3 GB');
    expect(humanSize(250 * 1024 ** 2)).toBe('250 MB');
  });

  it('names the real limit, and whether the file was read at all', () => {
    expect(
      tooLargeReason({ bytes: 2.1 * 1024 ** 3, max_bytes: INBOUND_MAX_BYTES, unread: true }),
    ).toBe(
      'The file is 2.1 GB, larger than the 16 MB a file may be; it goes to error/ unread. Ask the retailer to send it in smaller files.',
    );
    expect(
      tooLargeReason({ bytes: 24 * 1024 ** 2, max_bytes: INBOUND_MAX_BYTES, unread: false }),
    ).toBe(
      'The file is 24 MB, larger than the 16 MB a file may be; it goes to error/ and nothing of it was taken in. Ask the retailer to send it in smaller files.',
    );
  });

  it('says a file barely over the limit in bytes', () => {
    expect(
      tooLargeReason({ bytes: INBOUND_MAX_BYTES + 1, max_bytes: INBOUND_MAX_BYTES, unread: true }),
    ).toBe(
      'The file is 16,777,217 bytes, larger than the 16,777,216 bytes a file may be; it goes to error/ unread. Ask the retailer to send it in smaller files.',
    );
  });
});
