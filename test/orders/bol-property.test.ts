/** Properties of the BOL input rules: file names and strict base64. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBolContent } from '../../src/server/orders/bol';
import { DomainError } from '../../src/server/core/errors';
import { MAX_FILE_NAME_LENGTH, sanitiseFileName } from '../../src/server/core/file-name';

const anyName = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc
    .array(fc.constantFrom('..', '/', '\\', '.', ' ', '\u0000', '\u202e', 'a', 'é', '😀', '.pdf'))
    .map((parts) => parts.join('')),
);

describe('sanitiseFileName', () => {
  it('always gives a short, single-part, printable name ending in .pdf, and is idempotent', () => {
    fc.assert(
      fc.property(anyName, (raw) => {
        const name = sanitiseFileName(raw);
        expect(name.endsWith('.pdf')).toBe(true);
        expect(Array.from(name).length).toBeLessThanOrEqual(MAX_FILE_NAME_LENGTH);
        expect(name).not.toMatch(/[/\\<>:"|?*]/);
        expect(name).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
        expect(name).not.toMatch(/^[\s.]/);
        expect(sanitiseFileName(name)).toBe(name);
      }),
      { numRuns: 500 },
    );
  });
});

describe('decodeBolContent', () => {
  it('accepts exactly the standard encoding of any bytes and gives them back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = Buffer.from(bytes).toString('base64');
        expect(decodeBolContent(text).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses text with any character outside the alphabet', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 3, maxLength: 60 }),
        fc.nat(),
        fc.constantFrom(' ', '\n', '-', '_', '.', '%', 'é'),
        (bytes, at, bad) => {
          const text = Buffer.from(bytes).toString('base64');
          const i = at % text.length;
          const broken = text.slice(0, i) + bad + text.slice(i + 1);
          expect(() => decodeBolContent(broken)).toThrow(DomainError);
        },
      ),
      { numRuns: 300 },
    );
  });
});
