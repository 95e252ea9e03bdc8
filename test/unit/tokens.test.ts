import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Count signature checks: the verified-token cache should make them one per token string.
vi.mock('jose', async (importOriginal) => {
  const jose = await importOriginal<typeof import('jose')>();
  return { ...jose, jwtVerify: vi.fn(jose.jwtVerify) };
});
const { jwtVerify } = await import('jose');
const { signAccessToken, verifyAccessToken, TOKEN_LIFETIME_SECONDS } =
  await import('../../src/server/access/tokens');

const NOW = 1_800_000_000;
const verifications = vi.mocked(jwtVerify);

beforeEach(() => {
  verifications.mockClear();
});

describe('verifyAccessToken remembers verified tokens', () => {
  it('checks the signature of a token string once, then only its times', async () => {
    const secret = randomBytes(32);
    const token = await signAccessToken(secret, 'user-1', NOW);
    for (let i = 0; i < 5; i++) {
      expect(await verifyAccessToken(secret, token, NOW + i)).toBe('user-1');
    }
    expect(verifications).toHaveBeenCalledTimes(1);
  });

  it('a remembered token expires on time and stays refused', async () => {
    const secret = randomBytes(32);
    const token = await signAccessToken(secret, 'user-1', NOW);
    expect(await verifyAccessToken(secret, token, NOW)).toBe('user-1');
    const expiry = NOW + TOKEN_LIFETIME_SECONDS;
    expect(await verifyAccessToken(secret, token, expiry - 1)).toBe('user-1');
    expect(await verifyAccessToken(secret, token, expiry)).toBeNull();
    expect(await verifyAccessToken(secret, token, expiry + 10)).toBeNull();
  });

  it('a token remembered under one secret is not accepted under another', async () => {
    const first = randomBytes(32);
    const token = await signAccessToken(first, 'user-1', NOW);
    expect(await verifyAccessToken(first, token, NOW)).toBe('user-1');
    expect(await verifyAccessToken(randomBytes(32), token, NOW)).toBeNull();
  });

  it('a refused token is checked again each time (nothing remembered)', async () => {
    const secret = randomBytes(32);
    const token = await signAccessToken(randomBytes(32), 'user-1', NOW);
    expect(await verifyAccessToken(secret, token, NOW)).toBeNull();
    expect(await verifyAccessToken(secret, token, NOW)).toBeNull();
    expect(verifications).toHaveBeenCalledTimes(2);
  });
});
